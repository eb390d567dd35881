import { parseLsn } from 'src/core/database/replicas/lsn';
import { isPlainRead } from 'src/core/database/replicas/replica-routing';

describe('replica routing rules', () => {
  it('lets plain reads go to a replica', () => {
    expect(isPlainRead('SELECT * FROM investors WHERE tenant_id = $1')).toBe(true);
    expect(isPlainRead('  with recent AS (SELECT 1) SELECT * FROM recent')).toBe(true);
  });

  it('keeps writes, locking reads and side-effecting functions on the primary', () => {
    for (const sql of [
      'INSERT INTO events (id) VALUES ($1)',
      'WITH moved AS (UPDATE orders SET status = $1 RETURNING id) SELECT * FROM moved',
      'WITH gone AS (DELETE FROM holds RETURNING id) SELECT count(*) FROM gone',
      'SELECT * FROM ledger_accounts WHERE id = $1 FOR UPDATE',
      'SELECT * FROM ledger_accounts WHERE id = ANY($1) FOR NO KEY UPDATE',
      'SELECT * FROM orders FOR SHARE SKIP LOCKED',
      "SELECT nextval('statement_seq')",
      'SELECT pg_advisory_xact_lock($1)',
      "SELECT pg_notify('outbox_events', '')",
      "SELECT set_config('app.tenant', $1, true)",
      'UPDATE orders SET status = $1',
    ]) {
      expect([sql, isPlainRead(sql)]).toEqual([sql, false]);
    }
  });

  it('orders WAL positions as the log does', () => {
    expect(parseLsn('0/3000000')).toBe(0x3000000n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
  });
});
