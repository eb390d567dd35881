import Decimal from 'decimal.js';
import { DataSource } from 'typeorm';
import { itLocal, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { allActivities, netAmountsAndCash } from '../activities/support';
import { advanceClock, freezeClock, MONDAY_OPEN, setPrice, trader } from '../trading/support/trading';

import { announce, corporateActionWebhook, costOf, entitlements, expectAuditClean } from './support';
import { searchIds, DAY, EX_DATE_0400 } from './support';

/**
 * docs/decisions.md, Corporate actions: a symbol change gives the asset (same id) its new symbol from
 * 04:00 of the ex date. Positions keep quantity, cost basis and dates; open orders stay open and
 * read with the new symbol; past orders and executions keep theirs; the old ticker is unknown to
 * search and placement, for this tenant's test keys only (a test helper's announcement).
 */
describe('A symbol change on the test clock', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  beforeAll(() => holdAndAnnounce());
  afterAll(() => hook?.stop());

  it('announces the new ticker, upper case, and describes the change', () => {
    expect(action).toMatchObject({
      type: 'symbol_change',
      symbol: 'ADBE',
      new_symbol: 'ADOBX',
      new_asset_id: null,
      cash_rate: null,
      description: 'ADBE becomes ADOBX',
    });
  });

  it('keeps quantity, cost basis, id and dates of the positions under the new symbol', async () => {
    const basis = costOf(await us.executions(fills.us));
    const [position] = await us.positions();
    expect(position).toMatchObject({
      id: before.position.id,
      symbol: 'ADOBX',
      asset_id: assetId,
      quantity: '10',
      total_cost_basis: basis.toFixed(2),
      created_at: before.position.created_at,
      last_transaction_at: before.position.last_transaction_at,
    });
    const [gbPosition] = await gb.positions();
    expect(gbPosition).toMatchObject({
      symbol: 'ADOBX',
      quantity: '2.5',
      total_cost_basis: costOf(await gb.executions(fills.gb)).toFixed(2),
    });
    // No cash moved and the open orders' holds stay as they were.
    expect(await us.balance()).toEqual(before.balance);
    const rows = await entitlements(ctx, tenant.test, action.id);
    expect(rows.find((r) => r.account_id === us.investor.account_id)).toMatchObject({
      eligible_quantity: '10',
      quantity_change: '0',
      cash: '0',
      cash_in_lieu: '0',
      status: 'applied',
      applied_at: EX_DATE_0400,
    });
    expect(rows).toHaveLength(2);
  });

  it('leaves open orders open under the new symbol; past orders and executions keep the old one', async () => {
    for (const id of [resting.buy, resting.sell]) {
      expect(await us.order(id)).toMatchObject({ status: 'accepted', symbol: 'ADOBX' });
    }
    const open = (await us.accountOrders('?status=accepted')).body as Array<Record<string, any>>;
    expect(open.map((o) => o.symbol)).toEqual(['ADOBX', 'ADOBX']);
    expect(await us.order(fills.us)).toMatchObject({ status: 'filled', symbol: 'ADBE' });
    expect((await us.executions(fills.us)).map((e) => e.symbol)).toEqual(['ADBE']);
  });

  it('retires the old ticker for search and placement, for this tenant’s test keys only', async () => {
    const client = ctx.as(tenant.test);
    expect((await client.get('/v1/assets/ADBE')).status).toBe(404);
    expect((await client.get('/v1/assets/ADOBX')).body).toMatchObject({ id: assetId, symbol: 'ADOBX' });
    expect((await client.get(`/v1/assets/${assetId}`)).body).toMatchObject({
      symbol: 'ADOBX',
      tradable: true,
    });
    expect(await searchIds(ctx, tenant.test, 'ADOBX')).toContain(assetId);
    expect(await searchIds(ctx, tenant.test, 'ADBE')).not.toContain(assetId);
    const market = { side: 'buy', type: 'market', time_in_force: 'day', quantity: '1' };
    expectSvcError(await us.place({ ...market, symbol: 'ADBE' }), 'SVC-400-001', { param: 'symbol' });
    const bought = await us.place({ ...market, symbol: 'ADOBX' });
    expect(bought.body).toMatchObject({ status: 'filled', symbol: 'ADOBX' });
    const [position] = await us.positions();
    expect(position).toMatchObject({
      id: before.position.id,
      quantity: '11',
      total_cost_basis: costOf([
        ...(await us.executions(fills.us)),
        ...(await us.executions(bought.body.id)),
      ]).toFixed(2),
    });
    // Live keys and other tenants still know ADBE.
    expect((await ctx.as(tenant.live).get('/v1/assets/ADBE')).body).toMatchObject({ id: assetId });
    const other = await ctx.createTenant();
    expect((await ctx.as(other.test).get('/v1/assets/ADOBX')).status).toBe(404);
  });

  it('records NC minus the old symbol and plus the new, and sends corporate_action.applied', async () => {
    const feed = await allActivities(ctx, tenant.test, us.investor.account_id, '&activity_types=NC');
    const rows = feed.map((a) => [
      a.activity_type,
      a.date,
      a.symbol,
      new Decimal(a.qty as string).toFixed(),
      new Decimal(a.net_amount).toFixed(),
      a.corporate_action_id,
    ]);
    expect(rows).toEqual([
      ['NC', '2049-03-03', 'ADBE', '-10', '0', action.id],
      ['NC', '2049-03-03', 'ADOBX', '10', '0', action.id],
    ]);
    const sums = await netAmountsAndCash(ctx, tenant.test, us.investor.account_id);
    expect(sums.activities).toEqual(sums.cash);
    const basis = costOf(await us.executions(fills.us)).toFixed();
    const applied = await hook.waitFor((e) => e.event === 'corporate_action.applied', 2);
    expect(applied.find((e) => e.data.account_id === us.investor.account_id)?.data).toEqual({
      corporate_action_id: action.id,
      type: 'symbol_change',
      account_id: us.investor.account_id,
      investor_id: us.investor.id,
      symbol: 'ADBE',
      quantity_before: '10',
      quantity_after: '10',
      cost_basis_before: basis,
      cost_basis_after: basis,
      cash: '0',
      withholding: '0',
      net_cash: '0',
      cash_in_lieu: '0',
      currency: 'USD',
    });
    const [processed] = await hook.waitFor((e) => e.event === 'corporate_action.processed');
    expect(processed.data).toMatchObject({ id: action.id, status: 'processed' });
    expect(hook.all().filter((e) => e.event === 'order.canceled')).toEqual([]);
  });

  itLocal('a retried batch applies nothing twice, and the ledger audit holds', async () => {
    const { ActionSteps } = await import('src/modules/corporate-actions/action-steps');
    const { CorporateActionsRepository } =
      await import('src/modules/corporate-actions/corporate-actions.repository');
    const scope = { tenantId: tenant.tenantId, livemode: false };
    const row = await ctx.app!.get(CorporateActionsRepository).find(scope, action.id);
    await ctx
      .app!.get(DataSource)
      .transaction((manager) =>
        ctx.app!.get(ActionSteps).apply(manager, scope, row!, null, new Date(EX_DATE_0400)),
      );
    const feed = await allActivities(ctx, tenant.test, us.investor.account_id, '&activity_types=NC');
    expect(feed).toHaveLength(2);
    expect(await entitlements(ctx, tenant.test, action.id)).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 500));
    expect(hook.all().filter((e) => e.event === 'corporate_action.applied')).toHaveLength(2);
    await expectAuditClean(ctx, tenant.tenantId);
  });

  // What holdAndAnnounce (the beforeAll) leaves for the tests.
  let action: Record<string, any>;
  let us: Awaited<ReturnType<typeof trader>>;
  let gb: Awaited<ReturnType<typeof trader>>;
  let hook: Awaited<ReturnType<typeof corporateActionWebhook>>;
  let assetId: string;
  const fills: Record<string, string> = {};
  const resting: Record<string, string> = {};
  const before: Record<string, any> = {};

  /** Two traders hold ADBE (the US one with a resting buy and sell); the position and balance before, then the symbol change announced and the clock run through the ex date. */
  async function holdAndAnnounce(): Promise<void> {
    await freezeClock(ctx, tenant.test, MONDAY_OPEN);
    hook = await corporateActionWebhook(ctx, tenant.test);
    us = await trader(ctx, tenant.test, '10000.00');
    gb = await trader(ctx, tenant.test, '10000.00');
    await setPrice(ctx, tenant.test, 'ADBE', '300');
    const market = { symbol: 'ADBE', side: 'buy', type: 'market', time_in_force: 'day' };
    fills.us = (await us.place({ ...market, quantity: '10' })).body.id;
    fills.gb = (await gb.place({ ...market, quantity: '2.5' })).body.id;
    const limit = { symbol: 'ADBE', type: 'limit', time_in_force: 'gtc' };
    resting.buy = (await us.place({ ...limit, side: 'buy', quantity: '2', limit_price: '1' })).body.id;
    resting.sell = (await us.place({ ...limit, side: 'sell', quantity: '3', limit_price: '9000' })).body.id;
    assetId = (await ctx.as(tenant.test).get('/v1/assets/ADBE')).body.id;
    before.balance = await us.balance();
    [before.position] = await us.positions();
    action = await announce(ctx, tenant.test, {
      type: 'symbol_change',
      symbol: 'ADBE',
      new_symbol: 'adobx',
      ex_date: '2049-03-03',
    });
    // Wednesday 10:00 New York: the change applied at 04:00 and the regular session is open.
    await advanceClock(ctx, tenant.test, 2 * DAY);
  }
});
