import Decimal from 'decimal.js';
import { basic, createTestContext, TestContext, TestTenant } from '../support/app';
import { expectSvcError } from '../support/errors';

describe('POST /v1/test_helpers/prices', () => {
  let ctx: TestContext;
  let tenant: TestTenant;
  let other: TestTenant;

  beforeAll(async () => {
    ctx = await createTestContext();
    tenant = await ctx.createTenant({ products: ['market_data'] });
    other = await ctx.createTenant({ products: ['market_data'] });
  });

  afterAll(() => ctx?.close());

  it('fixes the last price for the tenant’s test mode; bid and ask and change follow it', async () => {
    const res = await setPrices({ symbol: 'AAPL', price: '190.00' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', url: '/v1/test_helpers/prices', has_more: false });
    const [record] = res.body.data;
    expect(record).toMatchObject({ object: 'asset', symbol: 'AAPL', livemode: false, price: 190 });
    expect(record.bidPrice).toBeLessThan(190);
    expect(record.askPrice).toBeGreaterThan(190);
    expect(record.change).toBeCloseTo(190 - record.previousClose, 2);

    expect((await asset('AAPL')).body.price).toBe(190);
    const quote = await ctx
      .http()
      .get('/v1/market-data/assets/AAPL/quote')
      .set('Authorization', basic(tenant.test));
    expect(quote.body).toMatchObject({ source: 'override', trade: { p: 190 } });
    const search = await ctx
      .http()
      .get('/v1/assets/search?q=AAPL&limit=1')
      .set('Authorization', basic(tenant.test));
    expect(search.body.data[0].price).toBe(190);

    // Live mode and other tenants keep the simulated price.
    expect((await asset('AAPL', tenant.live)).body.price).not.toBe(190);
    expect((await asset('AAPL', other.test)).body.price).not.toBe(190);
  });

  it('sets several prices at once and price null returns an asset to the simulation', async () => {
    const res = await setPrices({
      prices: [
        { symbol: 'MSFT', price: 400.5 },
        { symbol: 'BTC/USD', price: '65000.12345' },
      ],
    });
    expect(res.body.data.map((a: { symbol: string; price: number }) => [a.symbol, a.price])).toEqual([
      ['MSFT', 400.5],
      ['BTC/USD', 65000.123],
    ]);
    const cleared = await setPrices({ symbol: 'MSFT', price: null });
    expect(cleared.body.data[0].price).not.toBe(400.5);
    const quote = await ctx
      .http()
      .get('/v1/market-data/assets/MSFT/quote')
      .set('Authorization', basic(tenant.test));
    expect(quote.body.source).toBe('simulated');
  });

  it('a bond price is a clean price: the quote adds accrued interest and the yield follows', async () => {
    await setPrices({ symbol: '91282CLW9', price: '101.5' });
    const quote = await ctx
      .http()
      .get('/v1/market-data/assets/91282CLW9/quote')
      .set('Authorization', basic(tenant.test));
    const bond = quote.body.bond;
    expect(bond.clean_price).toBe(101.5);
    expect(bond.dirty_price).toBe(new Decimal('101.5').plus(bond.accrued_interest).toNumber());
    // Above par, the yield is below the 4.25% coupon.
    expect(bond.yield_to_maturity).toBeLessThan(4.25);
    expect((await asset('91282CLW9')).body.bond.yield_to_maturity).toBe(bond.yield_to_maturity);
  });

  it('is a test helper: live keys get 404', async () => {
    expectSvcError(await setPrices({ symbol: 'AAPL', price: '1' }, tenant.live), 'SVC-404-001');
  });

  it.each([
    [{}, 'SVC-400-002', 'symbol'],
    [{ symbol: 'AAPL' }, 'SVC-400-002', 'price'],
    [{ symbol: 'AAPL', price: '-1' }, 'SVC-400-001', 'price'],
    [{ symbol: 'AAPL', price: 'ten' }, 'SVC-400-001', 'price'],
    [{ symbol: 'NOPE', price: '1' }, 'SVC-400-001', 'symbol'],
    [
      {
        prices: [
          { symbol: 'AAPL', price: 1 },
          { symbol: 'NOPE', price: 1 },
        ],
      },
      'SVC-400-001',
      'prices[1].symbol',
    ],
    [{ prices: [] }, 'SVC-400-001', 'prices'],
    [{ symbol: 'AAPL', price: 1, prices: [{ symbol: 'AAPL', price: 1 }] }, 'SVC-400-001', 'prices'],
  ] as const)('%j answers %s naming %s', async (body, code, param) => {
    expectSvcError(await setPrices(body), code, { param });
  });

  const setPrices = (body: object, creds = tenant.test) =>
    ctx.http().post('/v1/test_helpers/prices').set('Authorization', basic(creds)).send(body);
  const asset = (ref: string, creds = tenant.test) =>
    ctx
      .http()
      .get(`/v1/assets/${encodeURIComponent(ref)}`)
      .set('Authorization', basic(creds));
});
