import type { DataSource } from 'typeorm';
import type { ActivitiesService } from 'src/modules/activities/activities.service';
import type { ActivityInput } from 'src/modules/activities/activity-types';
import type { LedgerService } from 'src/modules/ledger/ledger.service';
import type { JournalInput } from 'src/modules/ledger/ledger.types';

/** The month every bench account is active in; its statements are due on 1 April 2027. */
export const MONTH = '2027-03';
/** Accounts written per transaction. */
const CHUNK = 500;

type Scope = { tenantId: string; livemode: boolean };
type Journal = Omit<JournalInput, 'tenantId' | 'livemode'>;
type Entry = Journal['entries'][number];

const at = (day: string) => new Date(`${MONTH}-${day}T15:00:00Z`);
const usd = { currency: 'USD' };
const entry = (account: Entry['account'], direction: Entry['direction'], amount: string): Entry => ({
  account,
  direction,
  amount,
});

/** `count` investment accounts of the tenant, each with its own investor (as the service opens them). */
export async function insertAccounts(dataSource: DataSource, tenantId: string, count: number): Promise<void> {
  await dataSource.query(
    `INSERT INTO investment_accounts (id, tenant_id, livemode, investor_id, account_number, status, enabled_assets,
       email_address, phone_number, address, identity, disclosures)
     SELECT gen_random_uuid(), $1, false, 'inv_bench_' || i, 'BENCH' || i, 'ACTIVE', '{us_equity}',
       'b' || i || '@example.com', '+14155550123', '{}'::jsonb, '{}'::jsonb, '{}'::jsonb
       FROM generate_series(1, $2) AS i`,
    [tenantId, count],
  );
}

/**
 * One account's month, as the services write it: a deposit, a buy of AAPL and one of MSFT, a
 * partial sale of AAPL (each fill with its commission) and a withdrawal with a fee; the ledger
 * journals and the activities that report them. Amounts vary with the account's number.
 */
function month(accountId: string, n: number): { journals: Journal[]; activities: ActivityInput[] } {
  const cash = { kind: 'investor_cash' as const, ownerId: accountId, ...usd };
  const settlement = { kind: 'securities_settlement' as const, ...usd };
  const commission = entry({ kind: 'commissions_revenue', ...usd }, 'credit', '1.00');
  const deposit = `${5000 + (n % 500)}.00`;
  const key = (name: string) => `bench:${accountId}:${name}`;
  const journals: Journal[] = [
    {
      journalKey: key('deposit'),
      kind: 'deposit.settled',
      effectiveAt: at('02'),
      entries: [entry({ kind: 'bank_clearing', ...usd }, 'debit', deposit), entry(cash, 'credit', deposit)],
    },
    fill(key('buy-aapl'), at('03'), [
      entry(cash, 'debit', '1874.10'),
      entry(settlement, 'credit', '1873.10'),
      commission,
    ]),
    fill(key('buy-msft'), at('10'), [
      entry(cash, 'debit', '2011.75'),
      entry(settlement, 'credit', '2010.75'),
      commission,
    ]),
    fill(key('sell-aapl'), at('17'), [
      entry(settlement, 'debit', '760.08'),
      entry(cash, 'credit', '759.08'),
      commission,
    ]),
    {
      journalKey: key('withdrawal'),
      kind: 'withdrawal.settled',
      effectiveAt: at('24'),
      entries: [
        entry(cash, 'debit', '100.00'),
        entry({ kind: 'bank_clearing', ...usd }, 'credit', '98.00'),
        entry({ kind: 'fees_revenue', ...usd }, 'credit', '2.00'),
      ],
    },
  ];
  return { journals, activities: monthActivities(accountId, deposit, key) };
}

function fill(journalKey: string, effectiveAt: Date, entries: Entry[]): Journal {
  return { journalKey, kind: 'order.fill', effectiveAt, entries };
}

function monthActivities(accountId: string, deposit: string, key: (name: string) => string): ActivityInput[] {
  const common = { accountId, ...usd };
  const trade = (name: string, day: string, symbol: string, qty: string, price: string, net: string) => [
    { ...common, key: key(name), type: 'FILL' as const, at: at(day), netAmount: net, symbol, qty, price },
    { ...common, key: key(`${name}:commission`), type: 'FEE' as const, at: at(day), netAmount: '-1.00' },
  ];
  return [
    { ...common, key: key('deposit'), type: 'CSD', at: at('02'), netAmount: deposit },
    ...trade('buy-aapl', '03', 'AAPL', '10', '187.31', '-1873.10'),
    ...trade('buy-msft', '10', 'MSFT', '5', '402.15', '-2010.75'),
    ...trade('sell-aapl', '17', 'AAPL', '-4', '190.02', '760.08'),
    { ...common, key: key('withdrawal'), type: 'CSW', at: at('24'), netAmount: '-98.00' },
    { ...common, key: key('withdrawal:fee'), type: 'FEE', at: at('24'), netAmount: '-2.00' },
  ];
}

/**
 * Writes every account's month, CHUNK accounts per transaction, through the ledger's and the
 * activities' own services: recording the activities schedules each account's confirmations and
 * March statement, as in the service. Accounts are read page by page, never all at once.
 */
export async function seedMonths(
  dataSource: DataSource,
  services: { ledger: LedgerService; activities: ActivitiesService },
  scope: Scope,
): Promise<void> {
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const page: Array<{ id: string; n: string }> = await dataSource.query(
      `SELECT id, substr(account_number, 6) AS n FROM investment_accounts
        WHERE tenant_id = $1 AND account_number LIKE 'BENCH%' AND id > $2 ORDER BY id LIMIT $3`,
      [scope.tenantId, after, CHUNK],
    );
    if (page.length === 0) {
      return;
    }
    const months = page.map((a) => month(a.id, Number(a.n)));
    await dataSource.transaction(async (m) => {
      await services.ledger.postMany(
        m,
        scope,
        months.flatMap((x) => x.journals),
      );
      await services.activities.record(
        m,
        scope,
        months.flatMap((x) => x.activities),
      );
    });
    after = page[page.length - 1].id;
  }
}
