import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { minorUnits } from 'src/core/money/currencies';
import { Money } from 'src/core/money/money';
import { ActivitiesService } from 'src/modules/activities/activities.service';
import type { ActivityRow } from 'src/modules/activities/activity-types';
import { activityView } from 'src/modules/activities/activity-views';
import { LedgerService } from 'src/modules/ledger/ledger.service';
import { addDays } from 'src/modules/markets/calendar';
import { TradeRecords } from 'src/modules/trading/trade-records.service';
import { endOfDay, monthBounds } from 'src/modules/statements/period';
import type { AccountStatementData } from 'src/modules/statements/statement-data';
import { realizedBySell, TOTAL_TYPES } from 'src/modules/statements/statement-math';

type Scope = { tenantId: string; livemode: boolean };
type Prices = ReturnType<TradeRecords['pricesIn']>;
/** A day of the period and its last instant in New York, when its cash and close are read. */
type Day = { date: string; end: Date };
const EPOCH = '1970-01-01';
const money = (value: Decimal.Value, currency: string) => new Decimal(value).toFixed(minorUnits(currency));

/** Units held per symbol and currency after the given activities (FILL, SPLIT, … by their qty). */
function holdings(
  activities: ActivityRow[],
): Map<string, { symbol: string; currency: string; qty: Decimal }> {
  const held = new Map<string, { symbol: string; currency: string; qty: Decimal }>();
  for (const a of activities) {
    if (a.symbol && a.qty !== null && a.status !== 'canceled') {
      const entry = held.get(a.symbol) ?? { symbol: a.symbol, currency: a.currency, qty: new Decimal(0) };
      entry.qty = entry.qty.plus(a.qty);
      held.set(a.symbol, entry);
    }
  }
  return new Map([...held].filter(([, h]) => !h.qty.isZero()));
}

/**
 * The data of one account's statement for one calendar month: opening and closing cash from the
 * ledger, the month's activities, positions at the month's last close, equity, totals and the
 * month's daily equity. A few reads however long the month (statements are made for every account
 * at once): the activities, one ledger query for the cash at the month's eve and at each day's end,
 * and each held symbol's asset once; prices come from the pricing service.
 */
@Injectable()
export class StatementBuilder {
  constructor(
    private readonly activities: ActivitiesService,
    private readonly ledger: LedgerService,
    private readonly trades: TradeRecords,
  ) {}

  async build(scope: Scope, accountId: string, month: string): Promise<AccountStatementData> {
    const { first, last } = monthBounds(month);
    const days: Day[] = [];
    for (let date = first; date <= last; date = addDays(date, 1)) {
      days.push({ date, end: endOfDay(date) });
    }
    const history = await this.activities.between(scope, accountId, EPOCH, last);
    const inMonth = history.filter((a) => a.date >= first);
    // Cash at the end of the month's eve (opening), then of each of its days (the last: closing).
    const instants = [endOfDay(addDays(first, -1)), ...days.map((day) => day.end)];
    const ledgerCash = await this.ledger.cashSeries(scope, accountId, instants);
    const currencies = [...new Set([...ledgerCash.keys(), ...history.map((a) => a.currency)])];
    const cashAt = (currency: string, index: number) => ledgerCash.get(currency)?.[index] ?? new Money(0);
    const cash = currencies.map((currency) => ({
      currency,
      opening: money(cashAt(currency, 0), currency),
      closing: money(cashAt(currency, days.length), currency),
    }));
    const price = this.trades.pricesIn(scope);
    const positions = await this.valued(price, history, days[days.length - 1]);
    const equity = cash.map((c) => ({
      currency: c.currency,
      amount: money(
        positions
          .filter((p) => p.currency === c.currency)
          .reduce((sum, p) => sum.plus(p.market_value), new Decimal(c.closing)),
        c.currency,
      ),
    }));
    return {
      object: 'account_statement',
      account_id: accountId,
      period_start: first,
      period_end: last,
      cash,
      positions,
      equity,
      activities: inMonth.map(activityView),
      totals: currencies.map((currency) => this.totals(history, inMonth, currency)),
      daily_equity: await this.dailyEquity(price, history, currencies, days, cashAt),
    };
  }

  private async valued(price: Prices, history: ActivityRow[], day: Day) {
    const out: AccountStatementData['positions'] = [];
    for (const h of holdings(history.filter((a) => a.date <= day.date)).values()) {
      const priced = await price(h.symbol, day.end);
      const close = priced?.price ?? new Decimal(0);
      const value = h.qty.times(close).div(priced?.bond ? 100 : 1);
      out.push({
        symbol: h.symbol,
        asset_id: priced?.assetId ?? null,
        quantity: h.qty.toFixed(),
        close_price: close.toFixed(),
        market_value: money(value, h.currency),
        currency: h.currency,
      });
    }
    return out;
  }

  private totals(history: ActivityRow[], inMonth: ActivityRow[], currency: string) {
    const sum = (types: readonly string[]) =>
      inMonth
        .filter((a) => a.currency === currency && a.status !== 'canceled' && types.includes(a.activity_type))
        .reduce((s, a) => s.plus(a.net_amount), new Decimal(0));
    const realized = realizedBySell(history.filter((a) => a.currency === currency));
    const monthGain = inMonth
      .filter((a) => a.currency === currency)
      .reduce((s, a) => s.plus(realized.get(a.id) ?? 0), new Decimal(0));
    return {
      currency,
      deposits: money(sum(TOTAL_TYPES.deposits), currency),
      withdrawals: money(sum(TOTAL_TYPES.withdrawals), currency),
      dividends: money(sum(TOTAL_TYPES.dividends), currency),
      withholding: money(sum(TOTAL_TYPES.withholding), currency),
      interest: money(sum(TOTAL_TYPES.interest), currency),
      fees: money(sum(TOTAL_TYPES.fees), currency),
      realized_gain_loss: money(monthGain, currency),
    };
  }

  /** Each day's closing equity: that day's cash from the ledger plus its positions at the close. */
  private async dailyEquity(
    price: Prices,
    history: ActivityRow[],
    currencies: string[],
    days: Day[],
    cashAt: (currency: string, index: number) => Decimal,
  ): Promise<AccountStatementData['daily_equity']> {
    const points: AccountStatementData['daily_equity'] = [];
    for (const [index, day] of days.entries()) {
      const positions = await this.valued(price, history, day);
      for (const currency of currencies) {
        const value = positions
          .filter((p) => p.currency === currency)
          .reduce((s, p) => s.plus(p.market_value), cashAt(currency, index + 1));
        points.push({ date: day.date, currency, amount: money(value, currency) });
      }
    }
    return points;
  }
}
