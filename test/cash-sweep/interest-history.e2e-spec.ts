import { remoteAware } from '../support/remote';
import { useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { createInvestor, investorKey } from '../investors/fixtures';

import { datesBetween } from './support';

/** Spec, GET /investors/{investor_id}/cash-sweep/interest: filters, page_size 1..10000, page tokens. */
describe('Cash sweep interest history', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  let investor: Record<string, any>;
  // 402 accrual jobs run before the clock answers: longer against a deployed sandbox, which
  // shares a loaded machine with the run in CI (over 90 s seen at a load average of 15).
  beforeAll(() => accrueFor402Days(), remoteAware(60_000));

  it('pages through 402 entries with next_page_token, oldest first, none twice', async () => {
    const all = datesBetween('2049-01-04', '2050-02-09');
    expect(all).toHaveLength(402);
    const seen: string[] = [];
    const sizes: number[] = [];
    let token: string | null = null;
    do {
      const res = await get(`?page_size=150${token ? `&page_token=${encodeURIComponent(token)}` : ''}`);
      expect(res.status).toBe(200);
      sizes.push(res.body.data.length);
      seen.push(...res.body.data.map((e: { date: string }) => e.date));
      expect(res.body.has_more).toBe(res.body.next_page_token !== null);
      token = res.body.next_page_token;
    } while (token);
    expect(sizes).toEqual([150, 150, 102]);
    expect(seen).toEqual(all);
  });

  it('defaults to 100 a page and takes up to 10000', async () => {
    expect((await get('')).body.data).toHaveLength(100);
    const big = await get('?page_size=10000');
    expect([big.body.data.length, big.body.has_more, big.body.next_page_token]).toEqual([402, false, null]);
  });

  it('filters by date, after and before, with the filters kept across pages', async () => {
    expect((await get('?date=2049-02-28')).body.data.map((e: { date: string }) => e.date)).toEqual([
      '2049-02-28',
    ]);
    const window = await get('?after=2049-02-26&before=2049-03-03&page_size=2');
    expect(window.body.data.map((e: { date: string }) => e.date)).toEqual(['2049-02-27', '2049-02-28']);
    const next = await get(
      `?after=2049-02-26&before=2049-03-03&page_size=2&page_token=${window.body.next_page_token}`,
    );
    expect(next.body.data.map((e: { date: string }) => e.date)).toEqual(['2049-03-01', '2049-03-02']);
    expect(next.body.next_page_token).toBeNull();
    // A token used with other filters is refused rather than silently skipping entries.
    expectSvcError(await get(`?after=2049-01-01&page_token=${window.body.next_page_token}`), 'SVC-400-001', {
      param: 'page_token',
    });
  });

  it.each([
    ['page_size=0', 'page_size'],
    ['page_size=10001', 'page_size'],
    ['page_size=ten', 'page_size'],
    ['page_size=1.5', 'page_size'],
    ['date=2049-02-30', 'date'],
    ['date=yesterday', 'date'],
    ['after=2049-13-01', 'after'],
    ['before=20270301', 'before'],
    ['page_token=not-a-token', 'page_token'],
  ])('%s answers 400 naming %s', async (query, param) => {
    expectSvcError(await get(`?${query}`), 'SVC-400-001', { param });
  });

  it('an investor key reads its own history only; other tenants and the live mode see none of it', async () => {
    const key = await investorKey(ctx, tenant.test, investor.id);
    expect((await ctx.as(key).get(`${path()}?page_size=1`)).status).toBe(200);
    const other = await createInvestor(ctx, tenant.test);
    expect((await ctx.as(key).get(`/v1/investors/${other.id}/cash-sweep/interest`)).status).toBe(404);
    expect((await ctx.as(key).get(`/v1/investors/${other.id}/cash-sweep`)).status).toBe(404);
    const stranger = await ctx.createTenant();
    expectSvcError(await ctx.as(stranger.test).get(path()), 'SVC-404-001');
    expectSvcError(await ctx.as(stranger.test).get(`/v1/investors/${investor.id}/cash-sweep`), 'SVC-404-001');
    expectSvcError(await ctx.as(tenant.live).get(path()), 'SVC-404-001');
  });

  /** An investor made on 4 January 2049 and the clock moved 402 days on. */
  async function accrueFor402Days(): Promise<void> {
    const client = ctx.as(tenant.test);
    await client.post('/v1/test_helpers/clock', { frozen_time: '2049-01-04T15:00:00Z' });
    investor = await createInvestor(ctx, tenant.test);
    // 402 days later (two moves: one covers at most 366 days), each day accrued by its own job.
    await client.post('/v1/test_helpers/clock', { frozen_time: '2049-12-31T15:00:00Z' });
    await client.post('/v1/test_helpers/clock', { frozen_time: '2050-02-10T15:00:00Z' });
  }

  const path = () => `/v1/investors/${investor.id}/cash-sweep/interest`;
  const get = (query: string) => ctx.as(tenant.test).get(`${path()}${query}`);
});
