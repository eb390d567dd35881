import { listedAssetId } from 'src/modules/assets/identifiers';
import { readAssetFile, REFERENCE_DATA_FILES } from 'src/modules/assets/import/assets-importer';
import { basic, createTestContext, TestContext, TestTenant } from '../support/app';
import { expectSvcError } from '../support/errors';

describe('Asset search', () => {
  let ctx: TestContext;
  let tenant: TestTenant;

  beforeAll(async () => {
    ctx = await createTestContext();
    tenant = await ctx.createTenant();
  });

  afterAll(() => ctx?.close());

  describe('description A under /v1', () => {
    it('q=apple answers Apple Inc. first with every field of the asset resource', async () => {
      const res = await search({ q: 'apple' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['object', 'url', 'has_more', 'data']);
      expect(res.body).toMatchObject({ object: 'list', url: '/v1/assets/search', has_more: false });
      const apple = res.body.data[0];
      expect(Object.keys(apple)).toEqual(ASSET_KEYS);
      expect(apple).toEqual({
        id: listedAssetId('XNAS', 'AAPL'),
        object: 'asset',
        // Reference data: no creation by a partner, no partner metadata (docs/decisions.md, Assets).
        created: null,
        livemode: false,
        metadata: {},
        class: 'equity',
        country: 'us',
        market: 'XNAS',
        market_name: 'NASDAQ',
        market_country: 'US',
        market_currency: 'USD',
        symbol: 'AAPL',
        name: 'Apple Inc.',
        status: 'active',
        tradable: true,
        marginable: true,
        shortable: true,
        easy_to_borrow: true,
        fractionable: true,
        fractional_eh_enabled: true,
        currency: 'USD',
        price: expect.any(Number),
        change: expect.any(Number),
        changePercent: expect.any(Number),
        previousClose: expect.any(Number),
        bidPrice: expect.any(Number),
        askPrice: expect.any(Number),
        price_timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$/),
        last_synced_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      });
      expect(apple.bidPrice).toBeLessThan(apple.price);
      expect(apple.askPrice).toBeGreaterThan(apple.price);
      expect(apple.change).toBeCloseTo(apple.price - apple.previousClose, 2);
      expect(apple.changePercent).toBeCloseTo((apple.change / apple.previousClose) * 100, 2);
      // The rest are Apple's notes and bonds, whose names also start with "Apple".
      expect(res.body.data.slice(1).every((a: { name: string }) => a.name.startsWith('Apple Inc.'))).toBe(
        true,
      );
    });

    it('livemode follows the key', async () => {
      const res = await ctx
        .http()
        .get('/v1/assets/search?q=AAPL&limit=1')
        .set('Authorization', basic(tenant.live));
      expect(res.status).toBe(200);
      expect(res.body.data[0]).toMatchObject({ symbol: 'AAPL', livemode: true });
    });

    it('ranks an exact ticker first, then ticker prefixes, then name matches', async () => {
      const res = await search({ q: 'ms' });
      const symbols: string[] = res.body.data.map((a: { symbol: string }) => a.symbol);
      // MS itself, then every ticker starting with MS in ticker order, then names starting with "ms".
      expect(symbols[0]).toBe('MS');
      const prefixed = symbols.slice(1).filter((s) => s.toUpperCase().startsWith('MS'));
      expect(symbols.slice(1, 1 + prefixed.length)).toEqual(prefixed);
      expect(prefixed).toEqual([...prefixed].sort());
      expect(prefixed).toEqual(expect.arrayContaining(['MSCI', 'MSFT']));
      const aapl = await search({ q: 'aapl' });
      expect(aapl.body.data.map((a: { symbol: string }) => a.symbol)).toEqual([
        'AAPL',
        ...[...aapl.body.data.slice(1).map((a: { symbol: string }) => a.symbol)].sort(),
      ]);
      expect(aapl.body.data.slice(1).every((a: { symbol: string }) => a.symbol.startsWith('AAPL '))).toBe(
        true,
      );
      const bank = await search({ q: 'bank' });
      const names: string[] = bank.body.data.map((a: { name: string }) => a.name);
      // Names with a word starting with "bank" come before names that only contain it (SoftBank).
      expect(names).toContain('Bank of America Corporation');
      expect(names.indexOf('Bank of America Corporation')).toBeLessThan(
        names.indexOf('SoftBank Group Corp.'),
      );
    });

    it('matches part of a name or ticker, case-insensitively', async () => {
      const res = await search({ q: 'CROSOF' });
      expect(res.body.data[0]).toMatchObject({ symbol: 'MSFT', name: 'Microsoft Corporation' });
      const crypto = await search({ q: 'bitcoin' });
      // Bitcoin and Bitcoin Cash are the closest names; the bitcoin funds follow.
      expect(crypto.body.data.slice(0, 2).map((a: { symbol: string }) => a.symbol)).toEqual([
        'BTC/USD',
        'BCH/USD',
      ]);
      expect(crypto.body.data.slice(2).every((a: { name: string }) => /bitcoin/i.test(a.name))).toBe(true);
    });

    it('filters by class and lower-case country', async () => {
      const etfs = await search({ class: 'etf', limit: 100 });
      expect(etfs.body.data).toHaveLength(Math.min(100, shipped.filter((a) => a.class === 'etf').length));
      expect(etfs.body.data.every((a: { class: string }) => a.class === 'etf')).toBe(true);
      const nigeria = await search({ country: 'ng', limit: 100 });
      expect(nigeria.body.data.length).toBeGreaterThanOrEqual(25);
      expect(
        nigeria.body.data.every(
          (a: { country: string; market: string }) => a.country === 'ng' && a.market === 'XNSA',
        ),
      ).toBe(true);
      expect(nigeria.body.data.find((a: { symbol: string }) => a.symbol === 'DANGCEM')).toMatchObject({
        market_name: 'NGX',
        market_country: 'NG',
        market_currency: 'NGN',
        currency: 'NGN',
      });
      const bills = await search({ q: 'bill', class: 'bill' });
      expect(bills.body.data.every((a: { class: string }) => a.class === 'bill')).toBe(true);
    });

    it('status defaults to active; status=inactive lists matured bonds', async () => {
      const active = await search({ q: 'T 4.625 03/15/26' });
      expect(active.body.data.map((a: { symbol: string }) => a.symbol)).not.toContain('T 4.625 03/15/26');
      const inactive = await search({ q: 'T 4.625 03/15/26', status: 'inactive' });
      expect(inactive.body.data[0]).toMatchObject({
        symbol: 'T 4.625 03/15/26',
        status: 'inactive',
        class: 'note',
      });
      expect(inactive.body.data[0].bond).toMatchObject({ bond_status: 'matured', accrued_interest: 0 });
    });

    it('without q lists assets in ticker order, 50 by default, with has_more', async () => {
      const res = await search({});
      expect(res.body.data).toHaveLength(50);
      expect(res.body.has_more).toBe(true);
      const symbols = res.body.data.map((a: { symbol: string }) => a.symbol.toUpperCase());
      expect(symbols).toEqual([...symbols].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
      const one = await search({ limit: 1 });
      expect(one.body.data).toHaveLength(1);
      const max = await search({ limit: 100 });
      expect(max.body.data).toHaveLength(100);
    });

    it.each([
      [{ limit: 0 }, 'limit'],
      [{ limit: 101 }, 'limit'],
      [{ limit: 'ten' }, 'limit'],
      [{ status: 'deleted' }, 'status'],
      [{ class: 'stock' }, 'class'],
      [{ country: 'usa' }, 'country'],
      [{ q: 'x'.repeat(101) }, 'q'],
      [{ asset_class: 'crypto' }, 'asset_class'],
    ])('%j answers 400 SVC-400-001 naming %s', async (query, param) => {
      expectSvcError(await search(query), 'SVC-400-001', { param });
    });
  });

  describe('description B under the legacy alias', () => {
    it('answers {status, data, count} with the legacy asset fields', async () => {
      const res = await search({ q: 'apple' }, '/legacy/v1');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['status', 'data', 'count']);
      expect(res.body.status).toBe('success');
      expect(res.body.count).toBe(res.body.data.length);
      expect(res.body.data.length).toBeLessThanOrEqual(10);
      expect(Object.keys(res.body.data[0])).toEqual(LEGACY_KEYS);
      expect(res.body.data[0]).toEqual({
        id: listedAssetId('XNAS', 'AAPL'),
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
      });
    });

    it('limit defaults to 10 and goes up to 100', async () => {
      const res = await search({ q: 'inc' }, '/legacy/v1');
      expect(res.body.count).toBe(10);
      const more = await search({ q: 'inc', limit: 100 }, '/legacy/v1');
      expect(more.body.count).toBe(100);
    });

    it('asset_class us_equity keeps US-listed equities and ETFs; crypto keeps cryptocurrencies', async () => {
      const equities = await search({ q: 'bank', asset_class: 'us_equity', limit: 100 }, '/legacy/v1');
      expect(equities.body.count).toBeGreaterThan(0);
      for (const asset of equities.body.data) {
        expect(['equity', 'etf']).toContain(asset.class);
        expect(['XNAS', 'XNYS', 'ARCA', 'BATS', 'OTC']).toContain(asset.market);
      }
      const crypto = await search({ q: 'usd', asset_class: 'crypto', limit: 100 }, '/legacy/v1');
      expect(crypto.body.count).toBe(shipped.filter((a) => a.class === 'cryptocurrency').length);
      expect(crypto.body.data.every((a: { class: string }) => a.class === 'cryptocurrency')).toBe(true);
    });

    it('market accepts a name or a code', async () => {
      const byName = await search({ q: 'a', market: 'NASDAQ', limit: 100 }, '/legacy/v1');
      expect(byName.body.count).toBeGreaterThan(0);
      expect(byName.body.data.every((a: { market: string }) => a.market === 'XNAS')).toBe(true);
      const byCode = await search({ q: 'a', market: 'xnas', limit: 100 }, '/legacy/v1');
      expect(byCode.body.data).toEqual(byName.body.data);
      const crypto = await search({ q: 'btc', market: 'CRYPTO' }, '/legacy/v1');
      expect(crypto.body.data.map((a: { symbol: string }) => a.symbol)).toEqual(['BTC/USD']);
      const kenya = await search({ q: 'safaricom', market: 'NSE' }, '/legacy/v1');
      expect(kenya.body.data).toEqual([expect.objectContaining({ symbol: 'SCOM', market: 'XNAI' })]);
    });

    it('q is required: 400 SVC-400-002 naming q', async () => {
      expectSvcError(await search({}, '/legacy/v1'), 'SVC-400-002', { param: 'q' });
      expectSvcError(await search({ q: '  ' }, '/legacy/v1'), 'SVC-400-002', { param: 'q' });
    });

    it.each([
      [{ q: 'a', limit: 0 }, 'limit'],
      [{ q: 'a', limit: 101 }, 'limit'],
      [{ q: 'a', asset_class: 'bond' }, 'asset_class'],
      [{ q: 'a', market: 'LSE' }, 'market'],
      [{ q: 'a', class: 'equity' }, 'class'],
    ])('%j answers 400 SVC-400-001 naming %s', async (query, param) => {
      expectSvcError(await search(query, '/legacy/v1'), 'SVC-400-001', { param });
    });
  });

  it('asks for credentials like every route', async () => {
    expectSvcError(await ctx.http().get('/v1/assets/search?q=apple'), 'SVC-401-001');
  });

  const search = (query: Record<string, string | number>, prefix = '/v1') =>
    ctx.http().get(`${prefix}/assets/search`).query(query).set('Authorization', basic(tenant.test));
});

const shipped = REFERENCE_DATA_FILES.flatMap(readAssetFile) as Array<{ class: string; symbol: string }>;

/** Keys of an asset resource, in order (spec, Asset: envelope keys, then the table's fields). */
const ASSET_KEYS = [
  'id',
  'object',
  'created',
  'livemode',
  'metadata',
  'class',
  'country',
  'market',
  'market_name',
  'market_country',
  'market_currency',
  'symbol',
  'name',
  'status',
  'tradable',
  'marginable',
  'shortable',
  'easy_to_borrow',
  'fractionable',
  'fractional_eh_enabled',
  'currency',
  'price',
  'change',
  'changePercent',
  'previousClose',
  'bidPrice',
  'askPrice',
  'price_timestamp',
  'last_synced_at',
];
const LEGACY_KEYS = [
  'id',
  'class',
  'market',
  'symbol',
  'name',
  'status',
  'tradable',
  'marginable',
  'shortable',
  'easy_to_borrow',
  'fractionable',
];
