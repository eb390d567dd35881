import { createTestContext, TestContext } from '../support/app';
import { freezeClock, MONDAY_OPEN } from '../trading/support/trading';
import { activeInvestor, fundingBody, linkBankAccount } from '../wallet/support/wallet';
import { Activity, activityPage, allActivities } from './support';

/**
 * Syncing by page_token while activities are written: deposits settle concurrently (their
 * transactions commit in any order) while a reader pages oldest first from the last id it saw.
 * The reader must end with every activity exactly once, ids strictly increasing.
 */
describe('Activities: paging by page_token while new ones are written', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext();
  });

  afterAll(() => ctx.close());

  it('never skips or repeats an activity', async () => {
    const tenant = await ctx.createTenant();
    const client = ctx.as(tenant.test);
    await freezeClock(ctx, tenant.test, MONDAY_OPEN);
    const investor = await activeInvestor(ctx, tenant.test);
    const bank = await linkBankAccount(ctx, tenant.test, investor.id);
    const wallet = `/v1/wallet/accounts/${investor.account_id}`;
    const deposits: string[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await client.post(`${wallet}/funding`, fundingBody(bank.id, `${100 + i}.00`));
      deposits.push(res.body.transaction_id as string);
    }

    const seen: Activity[] = [];
    let writing = true;
    const reader = (async () => {
      for (;;) {
        const done = !writing;
        const token = seen.length ? `&page_token=${seen[seen.length - 1].id}` : '';
        const page = await activityPage(
          ctx,
          tenant.test,
          investor.account_id,
          `?direction=asc&page_size=3${token}`,
        );
        seen.push(...page);
        if (done && page.length < 3) {
          return;
        }
      }
    })();
    const settled = await Promise.all(
      deposits.map((id) => client.post(`/v1/test_helpers/wallet/transactions/${id}/settle`)),
    );
    writing = false;
    await reader;

    expect(settled.map((r) => r.status)).toEqual(deposits.map(() => 200));
    const all = await allActivities(ctx, tenant.test, investor.account_id);
    expect(all).toHaveLength(40);
    expect(seen.map((a) => a.id)).toEqual(all.map((a) => a.id));
    expect(new Set(seen.map((a) => a.transaction_id))).toEqual(new Set(deposits));
    const ids = seen.map((a) => a.id);
    expect([...ids].sort()).toEqual(ids);
  }, 120_000);
});
