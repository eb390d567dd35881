import fc from 'fast-check';
import { LedgerAudit } from 'src/modules/ledger/ledger-audit.service';
import { isRemote, useTestContext } from '../support/app';
import { sandboxTerms } from '../support/sandbox-terms';
import { freezeClock, MONDAY_OPEN, setPrice } from '../trading/support/trading';
import { activeInvestor, FAILING_ACCOUNT, fundingBody, linkBankAccount } from '../wallet/support/wallet';
import { activityPage, allActivities, cents, fromCents, sumByCurrency } from './support';
import { NO_LEDGER_DISCREPANCIES } from '../support/ledger-audit';

/**
 * docs/decisions.md, Activities: per currency, the executed activities' net_amounts of an account sum to
 * the ledger's change of its settled cash over the same span. Random histories of deposits and
 * withdrawals (settling or failing, by the helper or by moving the clock), buys and sells at random
 * prices with a commission and fees, and clock moves across month ends (interest payouts): after each
 * step the settled cash the API shows is noted with the clock time, and the activities up to that
 * time (`until`) must sum to it.
 */
describe('Activities property: net amounts sum to the change of settled cash', () => {
  const ctx = useTestContext();

  it('holds at every step of random histories', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
        const tenant = await ctx.createTenant();
        await sandboxTerms(ctx, tenant.tenantId, 'commission', { commission_type: 'bps', amount: '15' });
        await sandboxTerms(ctx, tenant.tenantId, 'transfer-settings', {
          deposit_fee_bps: 35,
          withdrawal_fee_flat: '1.25',
        });
        const client = ctx.as(tenant.test);
        await freezeClock(ctx, tenant.test, MONDAY_OPEN);
        const investor = await activeInvestor(ctx, tenant.test);
        const good = await linkBankAccount(ctx, tenant.test, investor.id);
        const bad = await linkBankAccount(ctx, tenant.test, investor.id, { account_number: FAILING_ACCOUNT });
        const wallet = `/v1/wallet/accounts/${investor.account_id}`;
        const checkpoints: Array<{ at: string; cash: string }> = [];
        const note = async () => {
          const clock = (await client.get('/v1/test_helpers/clock')).body.now as string;
          const cash = ((await client.get(`${wallet}/balances`)).body as Array<{ cash: string }>)[0]?.cash;
          checkpoints.push({ at: clock, cash: cash ?? '0.00' });
          // The next step starts strictly after the checkpoint: on a frozen clock a change made at the
          // checkpoint's instant would be inside its span (`until` is inclusive) but after the reading.
          await client.post('/v1/test_helpers/clock', { advance_seconds: 1 });
        };
        for (const step of ops) {
          if (step.kind === 'deposit' || step.kind === 'withdraw') {
            const path = step.kind === 'deposit' ? 'funding' : 'withdrawals';
            const res = await client.post(
              `${wallet}/${path}`,
              fundingBody((step.failing ? bad : good).id, money(step.cents)),
            );
            expect([201, 422]).toContain(res.status);
            if (res.status === 201 && step.cents % 2 === 0) {
              await client.post(`/v1/test_helpers/wallet/transactions/${res.body.transaction_id}/settle`);
            }
          } else if (step.kind === 'buy' || step.kind === 'sell') {
            await setPrice(ctx, tenant.test, 'AAPL', money(step.price));
            const res = await client.post(`/v1/investors/${investor.id}/orders`, {
              symbol: 'AAPL',
              side: step.kind,
              type: 'market',
              time_in_force: 'day',
              quantity: String(step.qty),
            });
            expect([201, 422]).toContain(res.status);
          } else if (step.kind === 'advance') {
            await client.post('/v1/test_helpers/clock', { advance_seconds: step.seconds });
          }
          await client.post('/v1/test_helpers/clock', { advance_seconds: 1 });
          await note();
        }
        const feed = await allActivities(ctx, tenant.test, investor.account_id);
        for (const point of checkpoints) {
          const upTo = feed.filter((a) => Date.parse(a.transaction_time) <= Date.parse(point.at));
          expect([point, fromCents(sumByCurrency(upTo).get('USD') ?? 0n)]).toEqual([point, point.cash]);
        }
        // The same through the API's own `until` filter, at the last step.
        const last = checkpoints[checkpoints.length - 1];
        const viaUntil = await allActivities(ctx, tenant.test, investor.account_id, `&until=${last.at}`);
        expect(fromCents(viaUntil.reduce((s, a) => s + cents(a.net_amount), 0n))).toBe(last.cash);
        expect(await activityPage(ctx, tenant.test, investor.account_id, '?page_size=1')).toHaveLength(
          feed.length ? 1 : 0,
        );
        if (!isRemote) {
          expect(await ctx.app!.get(LedgerAudit).check(tenant.tenantId)).toEqual(NO_LEDGER_DISCREPANCIES);
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? (isRemote ? 3 : 6)) },
    );
  }, 600_000);
});

type Op =
  | { kind: 'deposit' | 'withdraw'; cents: number; failing: boolean }
  | { kind: 'buy' | 'sell'; qty: number; price: number }
  | { kind: 'advance'; seconds: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom('deposit' as const, 'withdraw' as const),
      cents: fc.integer({ min: 200, max: 300_000 }),
      failing: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom('buy' as const, 'sell' as const),
      qty: fc.integer({ min: 1, max: 20 }),
      price: fc.integer({ min: 1_000, max: 40_000 }),
    }),
  },
  {
    weight: 2,
    // Up to 40 days: transfers settle by their jobs, month ends pay interest, sessions close.
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      seconds: fc.integer({ min: 60, max: 40 * 86_400 }),
    }),
  },
);

const money = (c: number) => (c / 100).toFixed(2);
