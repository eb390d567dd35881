import { runTsToExit } from '../support/ts-process';
import { join } from 'node:path';
import Decimal from 'decimal.js';
import { LedgerAudit } from 'src/modules/ledger/ledger-audit.service';
import { createTestContext, itLocal, TestContext } from '../support/app';
import { advanceClock, freezeClock, MONDAY_OPEN, setPrice, trader } from '../trading/support/trading';
import { announce, corporateActionWebhook, costOf, entitlements, EX_DATE_0400 } from './support';
import { NO_LEDGER_DISCREPANCIES } from '../support/ledger-audit';

describe('Corporate actions: a worker killed mid-action applies each account exactly once', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext();
  });

  afterAll(() => ctx.close());

  itLocal.each(['mid_batch', 'after_commit'])(
    'a 5 %% stock dividend (21 for 20) survives a worker killed %s',
    async (crash) => {
      const tenant = await ctx.createTenant();
      await freezeClock(ctx, tenant.test, MONDAY_OPEN);
      const hook = await corporateActionWebhook(ctx, tenant.test);
      await setPrice(ctx, tenant.test, 'AAPL', '50');
      const quantities = ['10', '3', '7.25'];
      const holders = [];
      for (const quantity of quantities) {
        const t = await trader(ctx, tenant.test, '1000.00');
        const fill = await t.place({
          symbol: 'AAPL',
          side: 'buy',
          type: 'market',
          time_in_force: 'day',
          quantity,
        });
        expect(fill.body.status).toBe('filled');
        holders.push({ t, quantity, basis: costOf(await t.executions(fill.body.id)) });
      }
      const action = await announce(ctx, tenant.test, {
        type: 'stock_dividend',
        symbol: 'AAPL',
        old_rate: '20',
        new_rate: '21',
        ex_date: '2049-03-03',
      });

      const outcome = await runWorker({
        TENANT: tenant.tenantId,
        ACTION: action.id,
        NOW: EX_DATE_0400,
        CRASH: crash,
      });
      expect(outcome).toBe('SIGKILL');
      // The clock passes the ex date: the action runs its whole course in the API process.
      await advanceClock(ctx, tenant.test, 2 * 24 * 3600);

      for (const h of holders) {
        const [position] = await h.t.positions();
        expect(position).toMatchObject({
          quantity: new Decimal(h.quantity).times(21).div(20).toFixed(),
          total_cost_basis: h.basis.toFixed(2),
        });
      }
      const rows = await entitlements(ctx, tenant.test, action.id);
      expect(rows).toHaveLength(3);
      expect(rows.every((r) => r.status === 'applied')).toBe(true);
      // Deliveries the killed worker had taken are retried once their queue lock lapses (JOB_LOCK_MS).
      const applied = await hook.waitFor(
        (e) => e.event === 'corporate_action.applied' && e.data.corporate_action_id === action.id,
        3,
        90_000,
      );
      await hook.waitFor((e) => e.event === 'corporate_action.processed', 1, 90_000);
      // Deliveries are at least once (a retried one keeps its event id): three events, one per account.
      await new Promise((r) => setTimeout(r, 500));
      const ids = hook
        .all()
        .filter((e) => e.event === 'corporate_action.applied' && e.data.corporate_action_id === action.id)
        .map((e) => e.id);
      expect(new Set(ids).size).toBe(3);
      expect(new Set(applied.map((e) => e.data.account_id)).size).toBe(3);
      expect(await ctx.app!.get(LedgerAudit).check(tenant.tenantId)).toEqual(NO_LEDGER_DISCREPANCIES);
      await hook.stop();
    },
    // A worker process boots (ts-node) for each case; a delivery it had taken waits for its lock.
    300_000,
  );

  itLocal(
    'a cash merger survives a worker killed mid_batch: each position closed once, for its cash',
    async () => {
      const tenant = await ctx.createTenant();
      await freezeClock(ctx, tenant.test, MONDAY_OPEN);
      const hook = await corporateActionWebhook(ctx, tenant.test);
      await setPrice(ctx, tenant.test, 'AAPL', '50');
      const holders = [];
      for (const quantity of ['10', '3', '7.25']) {
        const t = await trader(ctx, tenant.test, '1000.00');
        const fill = await t.place({
          symbol: 'AAPL',
          side: 'buy',
          type: 'market',
          time_in_force: 'day',
          quantity,
        });
        holders.push({ t, quantity, spent: costOf(await t.executions(fill.body.id)) });
      }
      const action = await announce(ctx, tenant.test, {
        type: 'cash_merger',
        symbol: 'AAPL',
        cash_rate: '61.5',
        ex_date: '2049-03-03',
      });
      expect(
        await runWorker({
          TENANT: tenant.tenantId,
          ACTION: action.id,
          NOW: EX_DATE_0400,
          CRASH: 'mid_batch',
        }),
      ).toBe('SIGKILL');
      await advanceClock(ctx, tenant.test, 2 * 24 * 3600);

      for (const h of holders) {
        expect(await h.t.positions()).toEqual([]);
        const paid = new Decimal(h.quantity).times('61.5').toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN);
        expect((await h.t.balance()).cash).toBe(new Decimal(1000).minus(h.spent).plus(paid).toFixed(2));
      }
      const rows = await entitlements(ctx, tenant.test, action.id);
      expect(rows.map((r) => r.status)).toEqual(['applied', 'applied', 'applied']);
      await hook.waitFor((e) => e.event === 'corporate_action.processed', 1, 90_000);
      await new Promise((r) => setTimeout(r, 500));
      const ids = hook
        .all()
        .filter((e) => e.event === 'corporate_action.applied' && e.data.corporate_action_id === action.id)
        .map((e) => e.id);
      expect(new Set(ids).size).toBe(3);
      expect(await ctx.app!.get(LedgerAudit).check(tenant.tenantId)).toEqual(NO_LEDGER_DISCREPANCIES);
      await hook.stop();
    },
    300_000,
  );
});

const runWorker = (env: Record<string, string>) => runTsToExit(join(__dirname, 'crashing-worker.ts'), env);
