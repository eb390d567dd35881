import { ERROR_CATALOG, ErrorCode } from 'src/core/errors/error-catalog';

/**
 * The exact SVC envelope a response must carry, field by field (spec, Error envelope).
 * The request id inside request_log_url must be the response's Request-Id header.
 */
export function expectSvcError(
  res: { status: number; body: unknown; headers: Record<string, string> },
  code: ErrorCode,
  extra: { param?: string; message?: string | RegExp } = {},
): void {
  const entry = ERROR_CATALOG[code];
  expect(res.status).toBe(entry.status);
  const requestId = res.headers['request-id'];
  expect(requestId).toMatch(/^req_[A-Za-z0-9_-]{22}$/);
  const body = res.body as { error: Record<string, unknown> };
  expect(Object.keys(body)).toEqual(['error']);
  const publicUrl = (process.env.PUBLIC_URL ?? 'http://localhost:3000').replace(/\/$/, '');
  const dashboardUrl = (process.env.DASHBOARD_URL ?? 'http://localhost:3000/dashboard').replace(/\/$/, '');
  const expected: Record<string, unknown> = {
    type: entry.type,
    code,
    message: expect.any(String),
    doc_url: `${publicUrl}/docs/errors#${code}`,
    request_log_url: `${dashboardUrl}/logs/${requestId}`,
  };
  if (extra.param !== undefined) {
    expected.param = extra.param;
  }
  expect(body.error).toEqual(expected);
  if (extra.message instanceof RegExp) {
    expect(body.error.message).toMatch(extra.message);
  } else if (typeof extra.message === 'string') {
    expect(body.error.message).toBe(extra.message);
  }
}
