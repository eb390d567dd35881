import { closeCliContext } from 'src/cli/cli-context';
import { DataSource, type EntityManager } from 'typeorm';
import { JobRegistry } from 'src/core/scheduler/job-registry';
import { LedgerAudit } from 'src/modules/ledger/ledger-audit.service';
import { isRemote, itLocal, useTenant, useTestContext } from '../support/app';
import { runCli } from '../support/cli';
import { sandboxTerms } from '../support/sandbox-terms';
import { expectSvcError } from '../support/errors';
import { createInvestor } from '../investors/fixtures';
import { depositSettled } from '../support/factories';
import { balances, fundedAccount } from '../wallet/support/wallet';
import { datesBetween, dayInterestUnits, payoutCents, units8 } from './support';
import { NO_LEDGER_DISCREPANCIES } from '../support/ledger-audit';

/**
 * docs/decisions.md, Cash sweep and the Cash Management add-on: one interest entry per enrolled account, currency and calendar day
 * (weekends included) from the settled cash at the day's end in New York; the month's interest is
 * paid on the next month's first business day, once.
 */
describe('Cash sweep accrual on the test clock', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  afterAll(() => closeCliContext());

  it('a month of interest equals an independent computation to the cent, and is paid once into cash', async () => {
    // Monday 1 March 2049, 10:00 in New York: the account opens and 10,000.00 settles.
    await move('2049-03-01T15:00:00Z');
    const { investor, bank } = await fundedAccount(ctx, tenant.test, '10000.00');
    investorId = investor.id;
    accountId = investor.account_id;

    // Wednesday 10 March: 2,500.00 more settles during the day, so that day ends with 12,500.00.
    await move('2049-03-10T15:00:00Z');
    await depositSettled(ctx, tenant.test, accountId, bank, '2500.00');

    // Thursday 1 April 2049, 10:00 EDT: March has accrued day by day and its payout (09:00) has run.
    await move('2049-04-01T14:00:00Z');

    const res = await client().get(
      `/v1/investors/${investorId}/cash-sweep/interest?after=2049-02-28&before=2049-04-01&page_size=100`,
    );
    expect(res.status).toBe(200);
    const dates = datesBetween('2049-03-01', '2049-03-31');
    const cashOn = (d: string) => (d < '2049-03-10' ? '10000.00' : '12500.00');
    const accountUnits = dates.map((d) => dayInterestUnits(cashOn(d), 350));
    const tierId = res.body.data[0]?.apr_tier_id;
    expect(tierId).toMatch(/^apr_[A-Za-z0-9_-]{22}$/);
    expect(res.body).toEqual({
      object: 'list',
      url: `/v1/investors/${investorId}/cash-sweep/interest`,
      has_more: false,
      next_page_token: null,
      data: dates.map((date, i) => ({
        object: 'interest_history_entry',
        livemode: false,
        date,
        account_id: accountId,
        apr_tier_name: 'standard',
        apr_tier_id: tierId,
        currency: 'USD',
        cash_balance: cashOn(date),
        account_rate_bps: 350,
        account_accrued_interest: units8(accountUnits[i]),
        correspondent_rate_bps: 50,
        correspondent_fee: units8(dayInterestUnits(cashOn(date), 50)),
      })),
    });
    // The weekend of 6-7 March accrues like any other day.
    expect(
      res.body.data.filter((e: { date: string }) => ['2049-03-06', '2049-03-07'].includes(e.date)),
    ).toHaveLength(2);

    const paid = payoutCents(accountUnits);
    const cash = (await balances(ctx, tenant.test, accountId)).find((b) => b.currency === 'USD')!;
    expect(cash.cash).toBe((12500 + Number(paid)).toFixed(2));

    const events = await client().get('/v1/events?event=cash_sweep.interest.paid');
    expect(events.status).toBe(200);
    expect(events.body.data).toHaveLength(1);
    expect(events.body.data[0].data).toMatchObject({
      object: 'interest_payout',
      account_id: accountId,
      investor_id: investorId,
      currency: 'USD',
      month: '2049-03',
      amount: paid,
      days: 31,
      paid_at: '2049-04-01T13:00:00.000Z',
    });

    const overview = await client().get(`/v1/investors/${investorId}/cash-sweep`);
    expect(overview.status).toBe(200);
    expect(overview.body).toMatchObject({
      object: 'cash_sweep',
      livemode: false,
      investor_id: investorId,
      enrollment: {
        status: 'enrolled',
        apr_tier_id: tierId,
        account_rate_bps: 350,
        accrual_start: '2049-03-01',
      },
      accrued_this_month: '0.00000000',
      last_accrued_date: '2049-03-31',
      last_payout: { month: '2049-03', amount: paid },
    });
  });

  it('accruing March again through the helper writes and pays nothing more', async () => {
    const again = await client().post('/v1/test_helpers/cash-sweep/accrue', { through: '2049-03-31' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      object: 'cash_sweep_accrual',
      livemode: false,
      through: '2049-03-31',
      days_accrued: 31,
      entries_written: 0,
      payouts_made: 0,
    });
    const events = await client().get('/v1/events?event=cash_sweep.interest.paid');
    expect(events.body.data).toHaveLength(1);
  });

  itLocal('the payout job run twice more posts nothing more; the ledger stays consistent', async () => {
    const before = await balances(ctx, tenant.test, accountId);
    const app = ctx.app!;
    const handler = app.get(JobRegistry).get('cash_sweep.pay_month');
    const job = {
      id: '00000000-0000-4000-8000-000000000000',
      tenantId: tenant.tenantId,
      livemode: false,
      kind: 'cash_sweep.pay_month',
      dueAt: new Date('2049-04-01T13:00:00Z'),
      payload: { currency: 'USD', month: '2049-03' },
      now: new Date('2049-04-01T14:00:00Z'),
      attempts: 0,
    };
    const dataSource = app.get(DataSource);
    await Promise.all([1, 2].map(() => dataSource.transaction((m: EntityManager) => handler.run(m, job))));
    expect(await balances(ctx, tenant.test, accountId)).toEqual(before);
    expect((await client().get('/v1/events?event=cash_sweep.interest.paid')).body.data).toHaveLength(1);
    expect(await app.get(LedgerAudit).check(tenant.tenantId)).toEqual(NO_LEDGER_DISCREPANCIES);
  });

  it('the helper refuses a day that has not ended, and bad dates, naming through', async () => {
    expectSvcError(
      await client().post('/v1/test_helpers/cash-sweep/accrue', { through: '2049-04-01' }),
      'SVC-400-001',
      {
        param: 'through',
      },
    );
    expectSvcError(
      await client().post('/v1/test_helpers/cash-sweep/accrue', { through: '2049-02-30' }),
      'SVC-400-001',
      {
        param: 'through',
      },
    );
    expectSvcError(await client().post('/v1/test_helpers/cash-sweep/accrue', {}), 'SVC-400-002', {
      param: 'through',
    });
  });

  it('an investor opened later accrues from its opening day only', async () => {
    const late = await createInvestor(ctx, tenant.test);
    await move('2049-04-03T14:00:00Z');
    const res = await client().get(`/v1/investors/${late.id}/cash-sweep/interest`);
    expect(
      res.body.data.map((e: { date: string; cash_balance: string }) => [e.date, e.cash_balance]),
    ).toEqual([
      ['2049-04-01', '0.00'],
      ['2049-04-02', '0.00'],
    ]);
  });

  it('support sets the default tier\u2019s rates with the CLI (or the sandbox admin API), in both modes; accrual follows', async () => {
    const partner = await ctx.createTenant();
    /** Support's command: the CLI in process; against a sandbox, its admin API (the same tiers). */
    const rates = async (
      tenantId: string,
      change: { account_rate_bps?: number; correspondent_rate_bps?: number },
    ) =>
      isRemote
        ? ((await sandboxTerms(ctx, tenantId, 'cash-sweep-rates', change)).data as object[])
        : ((await runCli(
            'cash-sweep:rates',
            tenantId,
            ...Object.entries(change).flatMap(([k, v]) => [`--${k.replace(/_/g, '-')}`, String(v)]),
          )) as object[]);
    const out = await rates(partner.tenantId, { account_rate_bps: 730, correspondent_rate_bps: 0 });
    const tier = { name: 'standard', currency: 'USD', account_rate_bps: 730, correspondent_rate_bps: 0 };
    expect(out).toEqual([
      expect.objectContaining({ livemode: false, ...tier }),
      expect.objectContaining({ livemode: true, ...tier }),
    ]);
    if (!isRemote) {
      expect(out.map((t) => (t as { is_default: boolean }).is_default)).toEqual([true, true]);
    }
    await expect(rates(partner.tenantId, { account_rate_bps: 10001 })).rejects.toThrow();
    await expect(rates('ten_nope', { account_rate_bps: 1 })).rejects.toThrow();

    const partnerClient = ctx.as(partner.test);
    await partnerClient.post('/v1/test_helpers/clock', { frozen_time: '2049-03-01T15:00:00Z' });
    const { investor } = await fundedAccount(ctx, partner.test, '2000.00');
    await partnerClient.post('/v1/test_helpers/clock', { frozen_time: '2049-03-02T15:00:00Z' });
    const res = await partnerClient.get(`/v1/investors/${investor.id}/cash-sweep/interest`);
    // 2000 × 730 / 10,000 / 365 = 0.40 exactly.
    expect(res.body.data).toEqual([
      expect.objectContaining({
        date: '2049-03-01',
        account_rate_bps: 730,
        account_accrued_interest: '0.40000000',
        correspondent_fee: '0.00000000',
      }),
    ]);
  });

  itLocal(
    '50 payout runs of one month at once pay it once; the scheduled job after them pays nothing',
    async () => {
      const partner = await ctx.createTenant();
      const partnerClient = ctx.as(partner.test);
      await partnerClient.post('/v1/test_helpers/clock', { frozen_time: '2049-03-01T15:00:00Z' });
      const { investor } = await fundedAccount(ctx, partner.test, '10000.00');
      // 1 April 08:00 New York: March has accrued; its payout is due at 09:00.
      await partnerClient.post('/v1/test_helpers/clock', { frozen_time: '2049-04-01T12:00:00Z' });
      const app = ctx.app!;
      const handler = app.get(JobRegistry).get('cash_sweep.pay_month');
      const job = {
        id: '00000000-0000-4000-8000-000000000001',
        tenantId: partner.tenantId,
        livemode: false,
        kind: 'cash_sweep.pay_month',
        dueAt: new Date('2049-04-01T13:00:00Z'),
        payload: { currency: 'USD', month: '2049-03' },
        now: new Date('2049-04-01T13:00:00Z'),
        attempts: 0,
      };
      const dataSource = app.get(DataSource);
      const runs = await Promise.allSettled(
        Array.from({ length: 50 }, () => dataSource.transaction((m: EntityManager) => handler.run(m, job))),
      );
      expect(runs.filter((r) => r.status === 'rejected')).toEqual([]);
      await partnerClient.post('/v1/test_helpers/clock', { frozen_time: '2049-04-01T14:00:00Z' });

      const paid = payoutCents(
        datesBetween('2049-03-01', '2049-03-31').map(() => dayInterestUnits('10000.00', 350)),
      );
      const cash = (await balances(ctx, partner.test, investor.account_id)).find(
        (b) => b.currency === 'USD',
      )!;
      expect(cash.cash).toBe((10000 + Number(paid)).toFixed(2));
      const events = await partnerClient.get('/v1/events?event=cash_sweep.interest.paid');
      expect(events.body.data.map((e: { data: { amount: string } }) => e.data.amount)).toEqual([paid]);
      expect(await app.get(LedgerAudit).check(partner.tenantId)).toEqual(NO_LEDGER_DISCREPANCIES);
    },
  );

  // The account the first case opens and funds; the later cases read it.
  let investorId: string;
  let accountId: string;

  const client = () => ctx.as(tenant.test);
  const move = async (frozen: string) => {
    const res = await client().post('/v1/test_helpers/clock', { frozen_time: frozen });
    expect([res.status, res.body.frozen_time]).toEqual([200, new Date(frozen).toISOString()]);
  };
});
