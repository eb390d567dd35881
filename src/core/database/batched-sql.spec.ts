import { renumberParameters } from 'src/core/database/batched-sql';

describe('renumberParameters', () => {
  it('moves each placeholder past the parameters before it, the same text every time', () => {
    const sql = 'UPDATE t SET a = $2 WHERE id = $1 AND b = $2 AND c = $10';
    const params = 10;
    expect(renumberParameters(sql, params, 0, 'first')).toBe(sql);
    expect(renumberParameters(sql, params, 3, 'second')).toBe(
      'UPDATE t SET a = $5 WHERE id = $4 AND b = $5 AND c = $13',
    );
    expect(renumberParameters(sql, params, 3, 'again')).toBe(
      'UPDATE t SET a = $5 WHERE id = $4 AND b = $5 AND c = $13',
    );
    expect(renumberParameters('SELECT 1', 0, 7, 'none')).toBe('SELECT 1');
  });

  it('refuses a placeholder beyond the statement own parameters, also for a text seen before', () => {
    const sql = 'SELECT * FROM t WHERE a = $1 AND b = $2';
    expect(renumberParameters(sql, 2, 4, 'fine')).toBe('SELECT * FROM t WHERE a = $5 AND b = $6');
    expect(() => renumberParameters(sql, 1, 4, 'Batched statement x')).toThrow(
      'Batched statement x uses $2 but has 1 parameters.',
    );
    expect(() => renumberParameters('SELECT $0', 1, 0, 'zero')).toThrow('zero uses $0 but has 1 parameters.');
  });
});
