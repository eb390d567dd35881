import { QueryFailedError } from 'typeorm';
import { loggableUrl, redactDatabaseMessage, safeErrorSerializer } from 'src/core/logging/safe-errors';

/** What the pg driver throws for a CHECK violation, as TypeORM wraps it. */
function checkViolation(): QueryFailedError {
  const driverError = Object.assign(
    new Error('new row for relation "investment_accounts" violates check constraint "probe_check"'),
    {
      code: '23514',
      severity: 'ERROR',
      table: 'investment_accounts',
      constraint: 'probe_check',
      detail: 'Failing row contains (ada@example.com, +14155550123, 123-45-6789).',
      routine: 'ExecConstraints',
    },
  );
  return new QueryFailedError(
    'INSERT INTO "investment_accounts"("email_address", "phone_number", "tax_id_ciphertext") VALUES ($1, $2, $3)',
    ['ada@example.com', '+14155550123', 'v1:abcdefgh:iv:tag:ciphertext'],
    driverError,
  );
}

describe('log-safe errors', () => {
  it('a failed query keeps SQLSTATE, constraint, table and query text, and loses values and row data', () => {
    const logged = safeErrorSerializer(checkViolation()) as Record<string, unknown>;
    expect(logged).toEqual({
      type: 'QueryFailedError',
      message: 'new row for relation "investment_accounts" violates check constraint "probe_check"',
      code: '23514',
      constraint: 'probe_check',
      table: 'investment_accounts',
      query:
        'INSERT INTO "investment_accounts"("email_address", "phone_number", "tax_id_ciphertext") VALUES ($1, $2, $3)',
      stack: expect.stringMatching(/^QueryFailedError: new row for relation/),
    });
    const text = JSON.stringify(logged);
    for (const value of ['ada@example.com', '+14155550123', '123-45-6789', 'v1:abcdefgh']) {
      expect(text).not.toContain(value);
    }
  });

  it('quoted values in a database message are replaced; the error’s own identifiers stay', () => {
    expect(redactDatabaseMessage('invalid input syntax for type uuid: "ada@example.com"', [])).toBe(
      'invalid input syntax for type uuid: "[redacted]"',
    );
    expect(
      redactDatabaseMessage('duplicate key value violates unique constraint "api_keys_public_key_key"', [
        'api_keys_public_key_key',
      ]),
    ).toBe('duplicate key value violates unique constraint "api_keys_public_key_key"');
  });

  it('other errors lose fields that carry request or row data, and keep message and stack', () => {
    const err = Object.assign(new Error('upstream failed'), {
      parameters: ['secret'],
      body: { tax_id: '123-45-6789' },
      config: { headers: { authorization: 'Basic abc' } },
      status: 502,
    });
    const logged = safeErrorSerializer(err) as Record<string, unknown>;
    expect(logged).toMatchObject({ type: 'Error', message: 'upstream failed', status: 502 });
    expect(logged.stack).toEqual(expect.stringContaining('upstream failed'));
    expect(JSON.stringify(logged)).not.toMatch(/secret|123-45-6789|Basic abc/);
    expect(safeErrorSerializer('plain')).toBe('plain');
  });

  it('urls keep their query parameter names, never the values', () => {
    expect(loggableUrl('/v1/investors?email=ada%40example.com&limit=5')).toBe(
      '/v1/investors?email=[redacted]&limit=[redacted]',
    );
    expect(loggableUrl('/v1/investors')).toBe('/v1/investors');
    expect(loggableUrl('/v1/x?flag')).toBe('/v1/x?flag=[redacted]');
  });
});
