import Decimal from 'decimal.js';
import type { Principal } from 'src/core/auth/principal';
import { CashSweepModule } from 'src/modules/cash-sweep/cash-sweep.module';
import type { ChangeEnrollmentDto } from 'src/modules/cash-sweep/dto/cash-sweep.inputs';
import { EnrollmentsService } from 'src/modules/cash-sweep/enrollments.service';
import { InterestAccrual } from 'src/modules/cash-sweep/interest-accrual.service';
import { InterestRepository } from 'src/modules/cash-sweep/interest.repository';
import { AccrueThrough } from 'src/modules/cash-sweep/use-cases/accrue-through.use-case';
import { madeBeforeAll } from '../support/made-before-all';
import { MONEY_MODULES, MoneyStates, testKeyOf } from '../support/money-states';
import { createServiceContext, describeLocal } from '../support/service-context';

/** The daily cash sweep accrual (services on a real database, days ended by the tenant's test clock). */
describeLocal('Cash sweep interest accrual (services on a real database)', () => {
  const ctx = madeBeforeAll('The service context', () =>
    createServiceContext([...MONEY_MODULES, CashSweepModule]),
  );
  const states = madeBeforeAll('The money states', () => Promise.resolve(new MoneyStates(ctx.app)));

  it('each ended day accrues settled cash × the tier rate / 10,000 / 365, half-even to 8 decimals, once', async () => {
    const key = await tenantAtT0();
    const investor = await fundedInvestor(key, '10000.00');
    await states.advanceClock(key, DAY); // the day's job accrues 2049-03-01
    await states.depositSettled(key, investor.accountId, investor.bankId, '2345.67');
    await states.advanceClock(key, 2 * DAY); // 2049-03-02 and 2049-03-03

    // The default tier: 350 bps for the investor, 50 bps for the correspondent (docs/decisions.md).
    const expected = [
      { date: '2049-03-01', cash: '10000.00' },
      { date: '2049-03-02', cash: '12345.67' },
      { date: '2049-03-03', cash: '12345.67' },
    ].map(({ date, cash }) => ({
      date,
      cash_balance: cash,
      account_rate_bps: 350,
      account_accrued_interest: oneDay(cash, 350),
      correspondent_rate_bps: 50,
      correspondent_fee: oneDay(cash, 50),
    }));
    expect(await entriesOf(key, investor.investorId)).toEqual(expected);
    expect(expected[0].account_accrued_interest).toBe('0.95890411'); // 10,000 × 3.5 % / 365

    // The day accrued again (a retried job), then the test helper over the same days: nothing new.
    const again = await ctx.dataSource.transaction((m) =>
      ctx.app.get(InterestAccrual).accrueDay(m, key, 'USD', '2049-03-02'),
    );
    expect(again).toBe(0);
    const helper = await ctx.app.get(AccrueThrough).execute(key, '2049-03-03', undefined);
    expect(helper).toMatchObject({ days_accrued: 3, entries_written: 0 });
    expect(await entriesOf(key, investor.investorId)).toEqual(expected);
  });

  it('an opted-out account accrues nothing; an enrolled one without cash accrues zero', async () => {
    const key = await tenantAtT0();
    const enrolled = await fundedInvestor(key, '5000.00');
    const optedOut = await fundedInvestor(key, '5000.00');
    await ctx.app
      .get(EnrollmentsService)
      .change(key, optedOut.accountId, { opted_out: true } as ChangeEnrollmentDto, undefined);
    const empty = await states.activeInvestor(key);
    await states.advanceClock(key, 2 * DAY); // 2049-03-01 and 2049-03-02
    await ctx.app.get(AccrueThrough).execute(key, '2049-03-02', undefined);

    const accrued = (cash: string) =>
      ['2049-03-01', '2049-03-02'].map((date) => ({ date, cash_balance: cash, interest: oneDay(cash, 350) }));
    const interestOf = async (investorId: string) =>
      (await entriesOf(key, investorId)).map((e) => ({
        date: e.date,
        cash_balance: e.cash_balance,
        interest: e.account_accrued_interest,
      }));
    expect(await interestOf(enrolled.investorId)).toEqual(accrued('5000.00'));
    expect(await interestOf(optedOut.investorId)).toEqual([]);
    expect(await interestOf(empty.investorId)).toEqual(accrued('0.00'));
    expect(accrued('0.00')[0].interest).toBe('0.00000000');
  });

  /**
   * One day of interest computed here, apart from the service: cash × bps / 10,000 / 365 (the
   * documented day-count basis), rounded half-even to 8 decimals on its own.
   */
  function oneDay(cash: string, bps: number): string {
    return new Decimal(cash)
      .times(bps)
      .dividedBy(10_000)
      .dividedBy(365)
      .toDecimalPlaces(8, Decimal.ROUND_HALF_EVEN)
      .toFixed(8);
  }

  async function tenantAtT0(): Promise<Principal> {
    const key = testKeyOf(await ctx.createTenant());
    await states.freezeClock(key, T0);
    return key;
  }

  /** An ACTIVE investor (enrolled as the account opens) with `amount` of settled USD cash. */
  async function fundedInvestor(key: Principal, amount: string) {
    const { investorId, accountId } = await states.activeInvestor(key);
    const bankId = await states.linkBank(key, investorId);
    await states.depositSettled(key, accountId, bankId, amount);
    return { investorId, accountId, bankId };
  }

  /** The investor's interest history, oldest first, amounts as the columns' scale allows (8) or cents (cash). */
  async function entriesOf(key: Principal, investorId: string) {
    const rows = await ctx.app
      .get(InterestRepository)
      .page(ctx.dataSource.manager, key, investorId, {}, null, 100);
    return rows.map((r) => ({
      date: r.date,
      cash_balance: new Decimal(r.cash_balance).toFixed(2),
      account_rate_bps: r.account_rate_bps,
      account_accrued_interest: new Decimal(r.account_accrued_interest).toFixed(8),
      correspondent_rate_bps: r.correspondent_rate_bps,
      correspondent_fee: new Decimal(r.correspondent_fee).toFixed(8),
    }));
  }

  /** 09:30 New York on a Monday; every account opened then accrues from 2049-03-01. */
  const T0 = new Date('2049-03-01T14:30:00Z');
  const DAY = 86_400;
});
