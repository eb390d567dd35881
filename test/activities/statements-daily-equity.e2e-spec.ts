import Decimal from 'decimal.js';
import { Client } from 'pg';
import { newUuid } from 'src/core/ids/ids';
import { minorUnits } from 'src/core/money/currencies';
import { ActivitiesService } from 'src/modules/activities/activities.service';
import type { ActivityInput } from 'src/modules/activities/activity-types';
import { AssetsService } from 'src/modules/assets/assets.service';
import { LedgerService } from 'src/modules/ledger/ledger.service';
import { PricingService } from 'src/modules/pricing/pricing.service';
import { endOfDay } from 'src/modules/statements/period';
import { StatementBuilder } from 'src/modules/statements/statement-builder';
import { itLocal, useTenant, useTestContext } from '../support/app';

/**
 * Statements are made for every account at once, so a statement's month reads the ledger once
 * (cash at the month's eve and at each day's end, every currency) and each held symbol's asset
 * once, not once per day. The figures stay what a read per day gives: cash as `cashAt` answers it
 * at each instant, positions at each day's close.
 */
describe('A statement’s daily equity, read once for the month', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);

  itLocal('answers each currency’s cash at every instant as cashAt does, in one query', async () => {
    const account = newUuid();
    const third = endOfDay('2049-03-03');
    const moves: Array<[string, string, Date]> = [
      ['USD', '100.10', new Date('2049-02-20T15:00:00Z')],
      ['USD', '0.01', third], // on the day's last millisecond: that day's
      ['USD', '7.00', new Date(third.getTime() + 1)], // the next day's
      ['KES', '250.50', new Date('2049-03-15T20:00:00Z')],
      ['USD', '3.33', new Date('2049-03-31T12:00:00Z')],
      ['USD', '9.99', new Date('2049-04-02T12:00:00Z')], // after the last instant
    ];
    for (const [i, [currency, amount, at]] of moves.entries()) {
      await credit(account, `series:${account}:${i}`, currency, amount, at);
    }
    const instants = [endOfDay('2049-02-28'), ...MARCH.map((day) => endOfDay(day))];
    const ledger = service(LedgerService);
    const { result: series, texts } = await queriesDuring(() =>
      ledger.cashSeries(scope(), account, instants),
    );
    expect(texts.filter((t) => LEDGER_ENTRIES.test(t))).toHaveLength(1);
    expect([...series.keys()]).toEqual(['KES', 'USD']);
    for (const currency of ['KES', 'USD']) {
      const perInstant = [];
      for (const at of instants) {
        perInstant.push((await ledger.cashAt(scope(), account, currency, at)).toFixed(8));
      }
      expect(series.get(currency)!.map((cash) => cash.toFixed(8))).toEqual(perInstant);
    }
    expect(series.get('USD')![3].toFixed(2)).toBe('100.11');
    expect(series.get('USD')![4].toFixed(2)).toBe('107.11');
  });

  itLocal(
    'builds a month of daily equity with one ledger read and one asset read per symbol, each day cash plus positions at its close',
    async () => {
      const account = newUuid();
      await credit(
        account,
        `statement:${account}:deposit`,
        'USD',
        '5000.00',
        new Date('2049-03-02T15:00:00Z'),
      );
      const fill = (symbol: string, day: string, qty: string, price: string, net: string): ActivityInput => ({
        key: `statement:${account}:${symbol}:${day}`,
        accountId: account,
        type: 'FILL',
        at: new Date(`${day}T15:00:00Z`),
        currency: 'USD',
        netAmount: net,
        symbol,
        qty,
        price,
      });
      await ctx.dataSource.transaction((m) =>
        service(ActivitiesService).record(m, scope(), [
          {
            key: `statement:${account}:deposit`,
            accountId: account,
            type: 'CSD',
            at: new Date('2049-03-02T15:00:00Z'),
            currency: 'USD',
            netAmount: '5000.00',
          },
          fill('AAPL', '2049-03-03', '10', '187.31', '0'),
          fill('MSFT', '2049-03-10', '5', '402.15', '0'),
          fill('AAPL', '2049-03-17', '-4', '190.02', '0'),
        ]),
      );
      const { result: data, texts } = await queriesDuring(() =>
        service(StatementBuilder).build(scope(), account, '2049-03'),
      );
      expect(texts.filter((t) => LEDGER_ENTRIES.test(t))).toHaveLength(1);
      expect(texts.filter((t) => ASSET_LOOKUP.test(t))).toHaveLength(2);

      const expected = await equityDayByDay(account, data.activities);
      expect(data.daily_equity).toEqual(expected);
      expect(data.cash).toEqual([{ currency: 'USD', opening: '0.00', closing: '5000.00' }]);
      expect(data.equity).toEqual([{ currency: 'USD', amount: expected[30].amount }]);
    },
  );

  /** Each March day's USD equity read day by day: cashAt its end plus each holding at its close. */
  async function equityDayByDay(
    account: string,
    activities: Array<{ date: string; symbol: string | null; qty: string | null }>,
  ) {
    const held: Record<string, Decimal> = {};
    const points = [];
    for (const day of MARCH) {
      for (const a of activities.filter((x) => x.date === day && x.symbol)) {
        held[a.symbol!] = (held[a.symbol!] ?? new Decimal(0)).plus(a.qty!);
      }
      let amount = await service(LedgerService).cashAt(scope(), account, 'USD', endOfDay(day));
      for (const [symbol, qty] of Object.entries(held)) {
        amount = amount.plus(qty.times(await closeOf(symbol, day)).toFixed(minorUnits('USD')));
      }
      points.push({ date: day, currency: 'USD', amount: amount.toFixed(2) });
    }
    return points;
  }

  /** A symbol's last price at a New York day's end, read as a statement of its own would. */
  async function closeOf(symbol: string, day: string): Promise<Decimal> {
    const asset = await service(AssetsService).resolveInScope(scope(), symbol);
    const quote = await service(PricingService).quote(asset!.priced, asset!.override, endOfDay(day));
    return new Decimal(quote.last);
  }

  const scope = () => ({ tenantId: tenant.tenantId, livemode: false });
  const service = <T>(type: new (...args: never[]) => T): T => ctx.app!.get(type);

  /** Posts cash of `amount` into the account's `currency` cash at `at` (from the bank). */
  const credit = (accountId: string, key: string, currency: string, amount: string, at: Date) =>
    ctx.dataSource.transaction((m) =>
      service(LedgerService).post(m, {
        ...scope(),
        journalKey: key,
        kind: 'deposit.settled',
        effectiveAt: at,
        entries: [
          { account: { kind: 'bank_clearing', currency }, direction: 'debit', amount },
          { account: { kind: 'investor_cash', ownerId: accountId, currency }, direction: 'credit', amount },
        ],
      }),
    );
});

/** The SQL texts the process sends to PostgreSQL while `work` runs (background work included). */
async function queriesDuring<T>(work: () => Promise<T>): Promise<{ result: T; texts: string[] }> {
  const texts: string[] = [];
  const query = Client.prototype.query as (...args: unknown[]) => unknown;
  Client.prototype.query = function recorded(this: Client, ...args: unknown[]) {
    const sql = args[0] as string | { text?: string };
    texts.push(typeof sql === 'string' ? sql : (sql?.text ?? ''));
    return query.apply(this, args);
  } as typeof Client.prototype.query;
  try {
    return { result: await work(), texts };
  } finally {
    Client.prototype.query = query as typeof Client.prototype.query;
  }
}

const LEDGER_ENTRIES = /FROM ledger_entries|JOIN ledger_entries/;
const ASSET_LOOKUP = /FROM "assets" a/;
const MARCH = Array.from({ length: 31 }, (_, i) => `2049-03-${String(i + 1).padStart(2, '0')}`);
