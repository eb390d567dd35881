import { runTsToExit } from '../support/ts-process';
import { join } from 'node:path';
import Decimal from 'decimal.js';
import { LedgerAudit } from 'src/modules/ledger/ledger-audit.service';
import { OrderEngine } from 'src/modules/trading/engine/order-engine.service';
import { isRemote, itLocal, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { freezeClock, MONDAY_OPEN, setPrice, trader } from './support/trading';
import { NO_LEDGER_DISCREPANCIES } from '../support/ledger-audit';

// The sweep would tick these assets on its own; these tests decide when engines run.
process.env.ENGINE_SWEEP_INTERVAL_MS = '0';

describe('Engine safety: concurrent buyers, two engines, a crash mid-tick', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  beforeAll(() => freezeClock(ctx, tenant.test, MONDAY_OPEN));

  it('50 concurrent resting buys hold exactly what the cash covers; the rest are 422 SVC-422-002', async () => {
    const t = await trader(ctx, tenant.test, '1000.00');
    await setPrice(ctx, tenant.test, 'AAPL', '10.00');
    const body = {
      symbol: 'AAPL',
      side: 'buy',
      type: 'limit',
      time_in_force: 'gtc',
      quantity: '10',
      limit_price: '5',
    };
    const results = await Promise.all(Array.from({ length: 50 }, () => t.place(body)));
    const accepted = results.filter((r) => r.status === 201);
    expect(accepted).toHaveLength(20);
    results
      .filter((r) => r.status !== 201)
      .forEach((r) => expectSvcError(r, 'SVC-422-002', { param: 'quantity' }));
    expect(await t.balance()).toMatchObject({ cash: '1000.00', available: '0.00', order_holds: '1000.00' });
  });

  it('50 concurrent market buys never spend the same cash: every accepted one filled, cash never below zero', async () => {
    const t = await trader(ctx, tenant.test, '1000.00');
    const quote = await setPrice(ctx, tenant.test, 'MSFT', '10.00');
    const body = { symbol: 'MSFT', side: 'buy', type: 'market', time_in_force: 'day', quantity: '3' };
    const results = await Promise.all(Array.from({ length: 50 }, () => t.place(body)));
    const filled = results.filter((r) => r.status === 201);
    filled.forEach((r) => expect(r.body.status).toBe('filled'));
    results
      .filter((r) => r.status !== 201)
      .forEach((r) => expectSvcError(r, 'SVC-422-002', { param: 'quantity' }));
    const cost = new Decimal(3).times(quote.ask).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    expect(filled.length).toBeGreaterThan(25);
    const balance = await t.balance();
    expect(balance.cash).toBe(new Decimal(1000).minus(cost.times(filled.length)).toFixed(2));
    expect(new Decimal(balance.available).gte(0)).toBe(true);
    expect(balance.order_holds).toBe('0.00');
    expect(await t.positions()).toEqual([
      expect.objectContaining({ symbol: 'MSFT', quantity: String(3 * filled.length) }),
    ]);
  });

  /** 30 resting buys on one asset, then the price drops without a tick (the helper would evaluate at once). */
  async function restingOrders(symbol: string) {
    const t = await trader(ctx, tenant.test, '10000.00');
    await setPrice(ctx, tenant.test, symbol, '20.00');
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await t.place({
        symbol,
        side: 'buy',
        type: 'limit',
        time_in_force: 'gtc',
        quantity: '2',
        limit_price: '10',
      });
      expect(res.body.status).toBe('accepted');
      ids.push(res.body.id);
    }
    if (isRemote) {
      return {
        t,
        ids,
        assetId: '',
        executions: () => Promise.resolve([] as Array<{ order_id: string; n: number }>),
      };
    }
    const [{ id: assetId }] = await ctx.dataSource.query(`SELECT id FROM assets WHERE symbol = $1 LIMIT 1`, [
      symbol,
    ]);
    await ctx.dataSource.query(
      `UPDATE asset_price_overrides SET price = 9 WHERE tenant_id = $1 AND asset_id = $2`,
      [tenant.tenantId, assetId],
    );
    const executions = async () =>
      (await ctx.dataSource.query(
        `SELECT order_id, count(*)::int AS n FROM executions WHERE order_id = ANY($1) GROUP BY order_id`,
        [ids],
      )) as Array<{ order_id: string; n: number }>;
    return { t, ids, assetId: assetId as string, executions };
  }

  it('two engines ticking the same asset at once fill every order exactly once', async () => {
    const { t, ids, assetId, executions } = await restingOrders('NVDA');
    if (isRemote) {
      // Each price change ticks the asset's resting orders before it answers: four at once on the server.
      const quotes = await Promise.all(
        Array.from({ length: 4 }, () => setPrice(ctx, tenant.test, 'NVDA', '9.00')),
      );
      expect(quotes.map((q) => q.last)).toEqual(['9', '9', '9', '9']);
    } else {
      const engine = ctx.app!.get(OrderEngine);
      const scope = { tenantId: tenant.tenantId, livemode: false };
      const changed = await Promise.all(Array.from({ length: 4 }, () => engine.tick(scope, [assetId])));
      expect(changed.reduce((a, b) => a + b, 0)).toBe(30);
      const counts = await executions();
      expect(counts).toHaveLength(30);
      expect(counts.every((c) => c.n === 1)).toBe(true);
    }
    for (const id of ids) {
      expect(await t.order(id)).toMatchObject({ status: 'filled', filled_quantity: '2' });
      expect(await t.executions(id)).toHaveLength(1);
    }
    expect(await t.positions()).toEqual([expect.objectContaining({ symbol: 'NVDA', quantity: '60' })]);
    expect((await t.balance()).order_holds).toBe('0.00');
    if (!isRemote) {
      expect(await ctx.app!.get(LedgerAudit).check(tenant.tenantId)).toEqual(NO_LEDGER_DISCREPANCIES);
    }
  });

  itLocal(
    'an engine worker killed mid-tick fills nothing; restarted, it fills each order once',
    async () => {
      const { t, ids, assetId, executions } = await restingOrders('AMZN');
      const env = { TENANT: tenant.tenantId, ASSET: assetId };
      const held = (await t.balance()).order_holds;

      expect(await runEngine({ ...env, CRASH: 'mid_tick' })).toBe('SIGKILL');
      expect(await executions()).toEqual([]);
      expect((await t.order(ids[0])).status).toBe('accepted');
      expect((await t.balance()).order_holds).toBe(held);

      expect(await runEngine({ ...env, CRASH: 'after_commit' })).toBe('SIGKILL');
      expect(await runEngine(env)).toBe(0);
      const counts = await executions();
      expect(counts).toHaveLength(30);
      expect(counts.every((c) => c.n === 1)).toBe(true);
      expect((await t.balance()).order_holds).toBe('0.00');
      expect(await ctx.app!.get(LedgerAudit).check(tenant.tenantId)).toEqual(NO_LEDGER_DISCREPANCIES);
    },
    180_000,
  );
});

const runEngine = (env: Record<string, string>) =>
  runTsToExit(join(__dirname, 'support', 'crashing-engine.ts'), env);
