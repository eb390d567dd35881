import fc from 'fast-check';
import { LedgerAudit } from 'src/modules/ledger/ledger-audit.service';
import { basic, isRemote, useTestContext } from '../support/app';
import { activeInvestor, FAILING_ACCOUNT, fundingBody, linkBankAccount } from './support/wallet';
import { NO_LEDGER_DISCREPANCIES } from '../support/ledger-audit';

/**
 * Random sequences of deposits, withdrawals, cancels, test-helper settlements and failures, and clock
 * moves, each checked against an independent model of the account: after every sequence the API's
 * balances equal the model's, the tenant's ledger sums to zero and every running total equals its
 * entries and holds.
 */
describe('Ledger property: random transfer histories', () => {
  const ctx = useTestContext();

  it('balances equal an independent computation and the ledger stays balanced', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constant(0), fc.integer({ min: 100, max: 200_000 })),
        fc.array(op, { minLength: 1, maxLength: 14 }),
        async (opening, ops) => {
          const tenant = await ctx.createTenant({ products: ['cash_management'] });
          const client = ctx.as(tenant.test);
          // Cash sweep interest is not part of this model: the default tier pays 0 %, so a month
          // boundary crossed by `advance` pays nothing into cash.
          const [standard] = (await client.get('/v1/cash-management/apr-tiers')).body.data;
          await ctx
            .http()
            .patch(`/v1/cash-management/apr-tiers/${standard.id}`)
            .set('Authorization', basic(tenant.test))
            .send({ account_rate_bps: 0, correspondent_rate_bps: 0 });
          await client.post('/v1/test_helpers/clock', {
            frozen_time: new Date(Date.now() + 86_400_000).toISOString(),
          });
          const investor = await activeInvestor(ctx, tenant.test);
          const good = await linkBankAccount(ctx, tenant.test, investor.id);
          const bad = await linkBankAccount(ctx, tenant.test, investor.id, {
            account_number: FAILING_ACCOUNT,
          });
          const wallet = `/v1/wallet/accounts/${investor.account_id}`;
          const model = { cash: 0, pending: 0, held: 0 };
          const transfers: Transfer[] = [];
          if (opening > 0) {
            const first = await client.post(`${wallet}/funding`, fundingBody(good.id, money(opening)));
            await client.post(`/v1/test_helpers/wallet/transactions/${first.body.transaction_id}/settle`);
            model.cash = opening;
          }
          const finish = (t: Transfer, status: 'settled' | 'failed' | 'canceled') => {
            if (t.type === 'deposit') {
              model.pending -= t.cents;
              model.cash += status === 'settled' ? t.cents : 0;
            } else {
              model.held -= t.cents;
              model.cash -= status === 'settled' ? t.cents : 0;
            }
            t.status = status;
          };

          for (const step of ops) {
            if (step.kind === 'deposit' || step.kind === 'withdraw') {
              const type = step.kind === 'deposit' ? 'deposit' : 'withdrawal';
              const res = await client.post(
                `${wallet}/${type === 'deposit' ? 'funding' : 'withdrawals'}`,
                fundingBody((step.failing ? bad : good).id, money(step.cents)),
              );
              const fits = type === 'deposit' || step.cents <= model.cash - model.held;
              expect([step, res.status]).toEqual([step, fits ? 201 : 422]);
              if (fits) {
                transfers.push({
                  id: res.body.transaction_id,
                  type,
                  cents: step.cents,
                  failing: step.failing,
                  status: 'pending',
                });
                model[type === 'deposit' ? 'pending' : 'held'] += step.cents;
              }
            } else if (step.kind === 'advance') {
              await client.post('/v1/test_helpers/clock', { advance_seconds: 6 * 86_400 });
              transfers
                .filter((t) => t.status === 'pending' || t.status === 'processing')
                .forEach((t) => finish(t, t.failing ? 'failed' : 'settled'));
            } else if ('pick' in step && transfers.length > 0) {
              const t = transfers[step.pick % transfers.length];
              const path =
                step.kind === 'cancel'
                  ? `${wallet}/transactions/${t.id}/cancel`
                  : `/v1/test_helpers/wallet/transactions/${t.id}/${step.kind}`;
              const res = await client.post(path, step.kind === 'fail' ? {} : undefined);
              const allowed =
                step.kind === 'cancel'
                  ? t.status === 'pending'
                  : t.status === 'pending' || t.status === 'processing';
              expect([step, res.status]).toEqual([step, allowed ? 200 : 409]);
              if (allowed) {
                finish(
                  t,
                  step.kind === 'cancel' ? 'canceled' : step.kind === 'settle' ? 'settled' : 'failed',
                );
              }
            }
          }

          const balances = (await client.get(`${wallet}/balances`)).body;
          expect(balances).toEqual([
            {
              currency: 'USD',
              cash: money(model.cash),
              available: money(model.cash - model.held),
              pending_deposits: money(model.pending),
              withdrawal_holds: money(model.held),
              order_holds: '0.00',
            },
          ]);
          const statuses = (await client.get(`${wallet}/transactions?limit=100`)).body as Array<{
            transaction_id: string;
            status: string;
          }>;
          for (const t of transfers) {
            expect(statuses.find((s) => s.transaction_id === t.id)?.status).toBe(t.status);
          }
          if (isRemote) {
            // A deployment's ledger tables are not the suite's to read: the API's figures above are the check.
            return;
          }
          const [sum] = await ctx.dataSource.query(
            `SELECT count(*)::int AS entries,
                    COALESCE(sum(CASE WHEN direction = 'debit' THEN amount ELSE -amount END), 0)::text AS net
               FROM ledger_entries WHERE tenant_id = $1`,
            [tenant.tenantId],
          );
          expect(Number(sum.net)).toBe(0);
          expect(await ctx.app!.get(LedgerAudit).check(tenant.tenantId)).toEqual(NO_LEDGER_DISCREPANCIES);
        },
      ),
      // Fewer histories against a deployment, where each costs a tenant and its HTTP round trips.
      { numRuns: Number(process.env.PROPERTY_RUNS ?? (isRemote ? 8 : 20)) },
    );
  }, 180_000);
});

type Op =
  | { kind: 'deposit' | 'withdraw'; cents: number; failing: boolean }
  | { kind: 'cancel' | 'settle' | 'fail'; pick: number }
  | { kind: 'advance' };

interface Transfer {
  id: string;
  type: 'deposit' | 'withdrawal';
  cents: number;
  failing: boolean;
  status: 'pending' | 'processing' | 'settled' | 'failed' | 'canceled';
}

const amount = fc.integer({ min: 100, max: 50_000 });
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('deposit' as const), cents: amount, failing: fc.boolean() }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('withdraw' as const), cents: amount, failing: fc.boolean() }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constantFrom('cancel' as const, 'settle' as const, 'fail' as const),
      pick: fc.nat(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'advance' as const }) },
);

const money = (cents: number) => (cents / 100).toFixed(2);
