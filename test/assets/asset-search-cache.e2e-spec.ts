import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AssetSearchCache } from 'src/modules/assets/asset-search-cache';
import { basic, createTestContext, itLocal, TestContext, TestCredentials, TestTenant } from '../support/app';
import { replicasCaughtUp } from '../support/database';

describe('Asset search results kept in memory', () => {
  let ctx: TestContext;
  let tenant: TestTenant;
  let other: TestTenant;

  beforeAll(async () => {
    ctx = await createTestContext();
    tenant = await ctx.createTenant({ products: ['market_data'] });
    other = await ctx.createTenant({ products: ['market_data'] });
  });

  afterAll(() => ctx?.close());

  it('a search seen before shows a tenant’s new test price at once; other tenants and live keys do not', async () => {
    const simulated = await priceOf('AAPL');
    await priceOf('AAPL', other.test);
    await priceOf('AAPL', tenant.live);
    await setPrice('AAPL', '1234.56');
    expect(await priceOf('AAPL')).toBe(1234.56);
    expect(await priceOf('AAPL', other.test)).not.toBe(1234.56);
    expect(await priceOf('AAPL', tenant.live)).not.toBe(1234.56);
    await setPrice('AAPL', null);
    expect(await priceOf('AAPL')).not.toBe(1234.56);
    expect(Math.abs((await priceOf('AAPL')) - simulated)).toBeLessThan(simulated / 2);
  });

  it('livemode of each item follows the key of each search of the same words', async () => {
    for (const [creds, livemode] of [
      [tenant.test, false],
      [tenant.live, true],
      [tenant.test, false],
    ] as const) {
      expect(new Set((await search('bank', creds)).map((a) => a.livemode))).toEqual(new Set([livemode]));
    }
  });

  it('each item of a search, first or repeated, is the resource GET /v1/assets/{id} answers', async () => {
    const frozen = await ctx.createTenant({ products: ['market_data'] });
    const clock = await ctx
      .http()
      .post('/v1/test_helpers/clock')
      .set('Authorization', basic(frozen.test))
      .send({ frozen_time: new Date(Date.now() + 3_600_000).toISOString() });
    expect(clock.status).toBe(200);
    await setPrice('MSFT', '321.5', frozen.test);
    await setPrice('91282CLW9', '99.5', frozen.test);
    for (const [q, status] of [
      ['treasury', 'active'],
      ['micro', 'active'],
      ['', 'inactive'],
    ]) {
      const query = { ...(q ? { q } : {}), status, limit: 20 };
      const first = await ctx
        .http()
        .get('/v1/assets/search')
        .query(query)
        .set('Authorization', basic(frozen.test));
      const again = await ctx
        .http()
        .get('/v1/assets/search')
        .query(query)
        .set('Authorization', basic(frozen.test));
      expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(again.text).toBe(first.text);
      expect(first.body.data.length).toBeGreaterThan(0);
      for (const item of first.body.data as Item[]) {
        const one = await ctx.http().get(`/v1/assets/${item.id}`).set('Authorization', basic(frozen.test));
        expect(item).toEqual(one.body);
      }
    }
  });

  itLocal('a search asked again is answered without reading PostgreSQL', async () => {
    await listeningCache();
    const query = jest.spyOn(ctx.app!.get(DataSource), 'query');
    try {
      await search('velmor');
      await search('velmor');
      await search('velmor', other.test);
      const searches = query.mock.calls.filter(([text]) => String(text).includes('"exact" AS'));
      expect(searches).toHaveLength(1);
    } finally {
      query.mockRestore();
    }
  });

  itLocal('changes committed by another process reach a search seen before', async () => {
    await listeningCache();
    const elsewhere = new Client({ connectionString: process.env.DATABASE_URL });
    await elsewhere.connect();
    try {
      expect(await search('quixotrel')).toEqual([]);
      await elsewhere.query(
        `UPDATE "assets" SET "name" = 'Quixotrel Software Corporation' WHERE "symbol" = 'MSFT'`,
      );
      await eventually(
        async () => (await search('quixotrel')).some((a) => a.symbol === 'MSFT'),
        'the renamed asset is found',
      );
      const [msft] = await search('MSFT', tenant.test, 1);
      await elsewhere.query(
        `INSERT INTO "asset_price_overrides" ("tenant_id", "asset_id", "price") VALUES ($1, $2, 4321)`,
        [tenant.tenantId, msft.id],
      );
      await eventually(async () => (await priceOf('MSFT')) === 4321, 'the override shows');
      expect(await priceOf('MSFT', other.test)).not.toBe(4321);
      await elsewhere.query(`DELETE FROM "asset_price_overrides" WHERE "tenant_id" = $1`, [tenant.tenantId]);
      await eventually(async () => (await priceOf('MSFT')) !== 4321, 'the override is gone');
    } finally {
      await elsewhere.end();
    }
  });

  itLocal('without its notification connection search reads PostgreSQL, and listens again', async () => {
    const cache = await listeningCache();
    const elsewhere = new Client({ connectionString: process.env.DATABASE_URL });
    await elsewhere.connect();
    try {
      await search('zorblax');
      await elsewhere.query(
        `SELECT pg_terminate_backend("pid") FROM pg_stat_activity
         WHERE "datname" = current_database() AND "query" LIKE 'LISTEN %'`,
      );
      await eventually(() => !cache.live, 'the lost connection is noticed');
      await elsewhere.query(`UPDATE "assets" SET "name" = 'Zorblax Devices Inc.' WHERE "symbol" = 'AAPL'`);
      // Not heard, so not marked: the search may read a replica, which must have the change first.
      await replicasCaughtUp();
      expect((await search('zorblax')).map((a) => a.symbol)).toEqual(['AAPL']);
      await eventually(() => cache.live, 'the cache listens again');
      expect((await search('zorblax')).map((a) => a.symbol)).toEqual(['AAPL']);
      await elsewhere.query(`UPDATE "assets" SET "name" = 'Apple Inc.' WHERE "symbol" = 'AAPL'`);
      await eventually(async () => (await search('zorblax')).length === 0, 'the name change is heard');
    } finally {
      await elsewhere.end();
    }
  });

  const search = async (q: string, creds: TestCredentials = tenant.test, limit = 50): Promise<Item[]> => {
    const res = await ctx
      .http()
      .get('/v1/assets/search')
      .query({ q, limit })
      .set('Authorization', basic(creds));
    expect(res.status).toBe(200);
    return res.body.data as Item[];
  };
  const priceOf = async (q: string, creds?: TestCredentials) => (await search(q, creds, 1))[0].price;
  const setPrice = async (symbol: string, price: string | null, creds = tenant.test) =>
    expect(
      (
        await ctx
          .http()
          .post('/v1/test_helpers/prices')
          .set('Authorization', basic(creds))
          .send({ symbol, price })
      ).status,
    ).toBe(200);

  /** This process's cache, listening (the first search starts the listener). */
  const listeningCache = async (): Promise<AssetSearchCache> => {
    const cache = ctx.app!.get(AssetSearchCache);
    await search('AAPL');
    await eventually(() => cache.live, 'the search cache listens');
    return cache;
  };
});

interface Item {
  id: string;
  symbol: string;
  price: number;
  livemode: boolean;
}

/** Waits for a condition another process's change brings about (notifications are asynchronous). */
async function eventually(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; waited < 20_000; waited += 50) {
    if (await condition()) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never happened: ${what}`);
}
