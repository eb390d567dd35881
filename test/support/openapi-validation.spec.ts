import { OpenApiResponseValidator, validatingResponses } from './openapi-validation';

/** The response check that every e2e call runs, on hand-made responses. */
describe('OpenApiResponseValidator', () => {
  const validator = OpenApiResponseValidator.fromFile();

  it('accepts a response that matches, under /v1 and under the legacy alias', () => {
    expect(check({})).toBeUndefined();
    expect(check({ url: '/legacy/v1/markets/xnai?at=2025-01-01' })).toBeUndefined();
    expect(check({ status: 404, body: envelope })).toBeUndefined();
  });

  it('holds asset search to description A under /v1 and to description B under the legacy alias', () => {
    const legacy = {
      status: 'success',
      data: [
        {
          id: 'b0b6dd9d-8b9b-5c5a-a3a5-8f3e1f2c6d7e',
          class: 'equity',
          market: 'XNAS',
          symbol: 'AAPL',
          name: 'Apple Inc.',
          status: 'active',
          tradable: true,
          marginable: true,
          shortable: true,
          easy_to_borrow: true,
          fractionable: true,
        },
      ],
      count: 1,
    };
    const list = { object: 'list', url: '/v1/assets/search', has_more: false, data: [] };
    expect(check({ url: '/legacy/v1/assets/search?q=apple', body: legacy })).toBeUndefined();
    expect(check({ url: '/v1/assets/search', body: list })).toBeUndefined();
    expect(check({ url: '/v1/assets/search?q=apple', body: legacy })).toContain(
      'searchAssets, GET /v1/assets/search',
    );
    expect(check({ url: '/legacy/v1/assets/search', body: list })).toContain(
      'searchAssetsLegacy, GET /legacy/v1/assets/search',
    );
    expect(check({ url: '/legacy/v1/assets/search', body: { ...legacy, count: 1.5 } })).toContain(
      '/count: must be integer',
    );
  });

  it('catches an undocumented field, naming it', () => {
    const problem = check({ body: { ...market, sessions: { ...market.sessions, lunch: null } } });
    expect(problem).toContain('getMarket, GET /v1/markets/{code}');
    expect(problem).toContain('GET /v1/markets/xnai → 200');
    expect(problem).toContain('/sessions: must NOT have additional properties (lunch)');
    expect(problem).toContain('"lunch":null');
  });

  it('catches a wrong type and a missing required field', () => {
    expect(check({ body: { ...market, has_holidays: 'yes' } })).toContain('/has_holidays: must be boolean');
    const { currency: _currency, ...withoutCurrency } = market;
    expect(check({ body: withoutCurrency })).toContain("must have required property 'currency'");
  });

  it('catches an undocumented status, and does not count `default` as documenting it', () => {
    expect(check({ status: 202 })).toContain('status 202 is not documented (documented: 200, 400, 401, 404');
    expect(check({ status: 409, body: envelope })).toContain('status 409 is not documented');
  });

  it('catches an undocumented content type and an error outside the envelope', () => {
    expect(check({ contentType: 'text/html; charset=utf-8', body: {} })).toContain(
      'content type text/html is not documented (documented: application/json)',
    );
    expect(check({ status: 404, body: { message: 'Not Found', statusCode: 404 } })).toContain(
      "must have required property 'error'",
    );
  });

  it('reads nullable strictly: null only where the schema allows it', () => {
    expect(check({ body: { ...market, sessions: { ...market.sessions, regular: null } } })).toContain(
      '/sessions/regular: must be object',
    );
  });

  it('holds unknown routes to the error envelope, and add-on paths also to the legacy 403 body', () => {
    const unknown = { method: 'GET', url: '/v1/no-such-thing', contentType: json };
    expect(validator.check({ ...unknown, status: 404, body: envelope })).toBeUndefined();
    expect(validator.check({ ...unknown, status: 200, body: {} })).toContain('is not in the document');
    const legacy = {
      status: 'error',
      code: 'PRODUCT_NOT_ENABLED',
      message: 'The market_data product is off.',
    };
    expect(
      validator.check({ ...unknown, url: '/legacy/v1/market-data/nothing', status: 403, body: legacy }),
    ).toBeUndefined();
    expect(validator.check({ ...unknown, status: 403, body: legacy })).toContain('no documented operation');
  });

  it('checks bare arrays item by item', () => {
    const accounts = validator.check({
      method: 'GET',
      url: '/v1/accounts',
      status: 200,
      contentType: json,
      body: [{}],
    });
    expect(accounts).toContain("/0: must have required property 'id'");
  });

  it('leaves out the test-only probe routes, health and docs', () => {
    for (const url of [
      '/v1/probe/whoami',
      '/legacy/v1/probe/things',
      '/health/ready',
      '/docs/openapi.json',
    ]) {
      expect(
        validator.check({ method: 'GET', url, status: 200, contentType: json, body: { anything: 1 } }),
      ).toBe(undefined);
    }
  });

  it('hooks into a supertest client: every request gets the check as an assertion', () => {
    const asserts: Array<(res: unknown) => void> = [];
    const fakeTest = { expect: (fn: (res: unknown) => void) => (asserts.push(fn), fakeTest) };
    const client = validatingResponses({ get: (_url: string) => fakeTest, post: (_url: string) => fakeTest });
    expect(client.get('/v1/markets/xnai')).toBe(fakeTest);
    expect(asserts).toHaveLength(1);
    const res = (body: unknown) => ({
      status: 200,
      headers: { 'content-type': json },
      body,
      text: JSON.stringify(body),
      req: { method: 'GET', path: '/v1/markets/xnai' },
    });
    expect(() => asserts[0](res(market))).not.toThrow();
    expect(() => asserts[0](res({ ...market, extra: 1 }))).toThrow(
      /must NOT have additional properties \(extra\)/,
    );
  });

  // The hand-made responses: a market, an error envelope, and check() of a 200 GET of the market.
  const json = 'application/json; charset=utf-8';
  const market = {
    object: 'market',
    livemode: false,
    code: 'XNAI',
    name: 'Nairobi Securities Exchange',
    display_name: 'NSE',
    country: 'KE',
    currency: 'KES',
    timezone: 'Africa/Nairobi',
    sessions: { pre: null, regular: { start: '09:00', end: '15:00' }, post: null },
    early_close_sessions: null,
    has_holidays: true,
  };
  const envelope = {
    error: {
      type: 'not_found_error',
      code: 'SVC-404-001',
      message: 'No such market.',
      doc_url: 'http://localhost:3000/docs/errors#SVC-404-001',
      request_log_url: 'http://localhost:3000/dashboard/logs/req_9xq2ZtM1Xb3l0pV7aQmN4w',
    },
  };
  const check = (over: Partial<Parameters<OpenApiResponseValidator['check']>[0]>) =>
    validator.check({
      method: 'GET',
      url: '/v1/markets/xnai',
      status: 200,
      contentType: json,
      body: market,
      ...over,
    });
});
