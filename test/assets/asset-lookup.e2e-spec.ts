import { createInvestor, investorKey } from '../investors/fixtures';
import { listedAssetId } from 'src/modules/assets/identifiers';
import { basic, createTestContext, TestContext, TestTenant } from '../support/app';
import { expectSvcError } from '../support/errors';
import { BOND_KEYS } from '../contract/spec-tables';

describe('Asset retrieval', () => {
  let ctx: TestContext;
  let tenant: TestTenant;

  beforeAll(async () => {
    ctx = await createTestContext();
    tenant = await ctx.createTenant();
  });

  afterAll(() => ctx?.close());

  it('finds an asset by id, and by ticker in any case', async () => {
    const id = listedAssetId('XNAS', 'MSFT');
    const byId = await get(id);
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ id, object: 'asset', symbol: 'MSFT', name: 'Microsoft Corporation' });
    const {
      price_timestamp: _t,
      price: _p,
      change: _c,
      changePercent: _cp,
      bidPrice: _b,
      askPrice: _a,
      ...fixed
    } = byId.body;
    for (const ref of ['MSFT', 'msft']) {
      expect((await get(ref)).body).toMatchObject(fixed);
    }
    expect(byId.body.bond).toBeUndefined();
  });

  it('finds a cryptocurrency by its pair, with or without the slash', async () => {
    const pair = await get('BTC/USD');
    expect(pair.body).toMatchObject({
      symbol: 'BTC/USD',
      class: 'cryptocurrency',
      market: 'CRYPTO',
      country: null,
      market_country: null,
      currency: 'USD',
      fractionable: true,
    });
    expect((await get('btcusd')).body.id).toBe(pair.body.id);
    expect((await get('BTC-USD')).body.id).toBe(pair.body.id);
  });

  it('finds a Treasury note by CUSIP with every bond attribute', async () => {
    const res = await get('91282CLW9');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: '91282CLW9',
      object: 'asset',
      class: 'note',
      symbol: 'T 4.25 11/15/34',
      market: 'OTC',
      currency: 'USD',
    });
    const bond = res.body.bond;
    expect(Object.keys(bond)).toEqual(BOND_KEYS);
    expect(bond).toMatchObject({
      cusip: '91282CLW9',
      isin: 'US91282CLW90',
      bond_status: 'outstanding',
      bond_type: 'treasury',
      bond_subtype: 'note',
      maturity_date: '2034-11-15',
      issue_date: '2024-11-15',
      dated_date: '2024-11-15',
      first_coupon_date: '2025-05-15',
      last_coupon_date: '2034-11-15',
      coupon_rate: '0.0425',
      coupon_type: 'fixed',
      coupon_frequency: 2,
      accrual_basis: 'ACT/ACT',
      face_value: '100',
      min_increment: '100',
      settlement_period: 1,
      callable: false,
      puttable: false,
      convertible: false,
      perpetual: false,
      next_call_date: null,
      next_call_price: null,
      issuer: 'United States Treasury',
      country_domicile: 'US',
      sp_outlook: 'stable',
    });
    expect(bond.next_coupon_date).toMatch(/^\d{4}-(05|11)-15$/);
    expect(bond.close_price_date).toMatch(DATE);
    expect(typeof bond.accrued_interest).toBe('number');
    // 4.25% semiannual: at most one half-year coupon of 2.125 per 100 face accrues.
    expect(bond.accrued_interest).toBeGreaterThanOrEqual(0);
    expect(bond.accrued_interest).toBeLessThan(2.125);
    expect(bond.yield_to_maturity).toBeGreaterThan(0);
    expect(bond.yield_to_maturity).toBeLessThan(15);
    expect(bond.yield_to_worst).toBe(bond.yield_to_maturity);
    // Bond prices are clean prices in percent of par.
    expect(res.body.price).toBeGreaterThan(50);
    expect(res.body.price).toBeLessThan(150);
  });

  it('finds a bond by ISIN, and a bill carries zero accrued interest and a bond-equivalent yield', async () => {
    const byIsin = await get('US91282CLW90');
    expect(byIsin.body.id).toBe('91282CLW9');
    const bill = await get('912797WA1');
    expect(bill.body).toMatchObject({ class: 'bill', symbol: 'B 09/02/27' });
    expect(bill.body.bond).toMatchObject({
      coupon_type: 'zero',
      coupon_frequency: 0,
      coupon_rate: '0',
      accrued_interest: 0,
      next_coupon_date: null,
      bond_subtype: 'bill',
    });
    expect(bill.body.price).toBeLessThan(100);
    expect(bill.body.bond.yield_to_maturity).toBeGreaterThan(0);
  });

  it('a corporate bond carries its issuer and ticker, and settles T+2', async () => {
    const res = await get('037833CR9');
    expect(res.body.bond).toMatchObject({
      bond_type: 'corporate',
      // Spec, Bond attributes: T+N business days, 2 for corporates (orders default to the same).
      settlement_period: 2,
      issuer: 'Apple Inc.',
      ticker: 'AAPL',
      accrual_basis: '30/360',
      face_value: '1000',
      min_increment: '1000',
      call_type: 'make_whole',
    });
  });

  it('is reference data: an investor-scoped key reads it too', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    const creds = await investorKey(ctx, tenant.test, investor.id);
    const res = await ctx.http().get('/v1/assets/AAPL').set('Authorization', basic(creds));
    expect(res.status).toBe(200);
    expect(res.body.symbol).toBe('AAPL');
    const markets = await ctx.http().get('/v1/markets').set('Authorization', basic(creds));
    expect(markets.status).toBe(200);
  });

  it('answers 404 SVC-404-001 for an unknown asset', async () => {
    expectSvcError(await get('NOPE'), 'SVC-404-001', { message: "No such asset: 'NOPE'." });
    expectSvcError(await get('912828AAA'), 'SVC-404-001');
  });

  const get = (ref: string) =>
    ctx
      .http()
      .get(`/v1/assets/${encodeURIComponent(ref)}`)
      .set('Authorization', basic(tenant.test));
});

const DATE = /^\d{4}-\d{2}-\d{2}$/;
