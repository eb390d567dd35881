import {
  CapturedRequest,
  requestLogBatchJson,
  requestLogColumns,
  RequestLogScope,
} from 'src/modules/request-logs/request-log-row';

describe('requestLogBatchJson', () => {
  it('writes ordinary rows as they are, text outside the BMP included', () => {
    const rows = [
      requestLogColumns(captured(), scope),
      requestLogColumns(
        captured({ id: 'req_2', originalUrl: '/v1/investors/\u{1F600}?status=\u00e9' }),
        scope,
      ),
    ];
    const parsed = JSON.parse(requestLogBatchJson(rows)) as unknown[][];
    expect(parsed[0]).toEqual([
      'req_1',
      'ten_1',
      false,
      'apk_1',
      null,
      'GET',
      '/v1/investors',
      { limit: '5' },
      200,
      3,
      null,
      null,
      null,
      false,
      false,
      1_700_000_000_000,
    ]);
    expect(parsed[1][6]).toBe('/v1/investors/\u{1F600}');
    expect(parsed[1][7]).toEqual({ status: '\u00e9' });
  });

  it('replaces NUL and lone surrogates in free text with U+FFFD, the error code read again', () => {
    const rows = [
      requestLogColumns(captured(), scope),
      requestLogColumns(
        captured({
          id: 'req_2',
          originalUrl: '/v1/x\ud800?status=a%00b',
          status: 400,
          error: { code: 'SVC-400-001', message: 'bad\u0000', details: [{ ['k\udc00']: 'v' }] },
          idempotencyKey: 'key\ud83d',
        }),
        scope,
      ),
    ];
    const parsed = JSON.parse(requestLogBatchJson(rows)) as unknown[][];
    expect(parsed[0][6]).toBe('/v1/investors');
    expect(parsed[1][6]).toBe('/v1/x\ufffd');
    expect(parsed[1][7]).toEqual({ status: 'a\ufffdb' });
    expect(parsed[1][10]).toBe('SVC-400-001');
    expect(parsed[1][11]).toEqual({
      code: 'SVC-400-001',
      message: 'bad\ufffd',
      details: [{ ['k\ufffd']: 'v' }],
    });
    expect(parsed[1][12]).toBe('key\ufffd');
  });

  it('keeps a backslash followed by "u0000" as sent', () => {
    const rows = [requestLogColumns(captured({ idempotencyKey: 'a\\u0000b' }), scope)];
    expect((JSON.parse(requestLogBatchJson(rows)) as unknown[][])[0][12]).toBe('a\\u0000b');
  });
});

const scope: RequestLogScope = {
  tenantId: 'ten_1',
  livemode: false,
  keyId: 'apk_1',
  investorId: null,
  method: 'basic',
};

function captured(overrides: Partial<CapturedRequest> = {}): CapturedRequest {
  return {
    id: 'req_1',
    scope,
    publicKey: null,
    method: 'GET',
    originalUrl: '/v1/investors?limit=5',
    status: 200,
    durationMs: 2.6,
    finishedAt: 1_700_000_000_003,
    error: undefined,
    idempotencyKey: undefined,
    replayed: false,
    legacy: false,
    ...overrides,
  };
}
