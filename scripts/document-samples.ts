import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { renderConfirmation, renderStatement } from 'src/modules/statements/pdf/render-documents';
import type { AccountStatementData, TradeConfirmationData } from 'src/modules/statements/statement-data';

/**
 * Renders a sample trade confirmation and statement with the service's renderers and writes a PNG of
 * each first page to docs/ (pdftoppm, from poppler-utils). Run: npx ts-node -r tsconfig-paths/register
 * scripts/document-samples.ts
 */
const account = '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b';
const branding = { display_name: 'Acme Invest', accent_color: '#0a7d5a' };
const at = new Date('2027-04-01T13:00:00Z');

const confirmation: TradeConfirmationData = {
  object: 'trade_confirmation',
  account_id: account,
  trade_date: '2027-03-01',
  executions: [
    {
      order_id: 'ord_Xb4mT9qLc2Vn7Rz0Pk5WaE',
      symbol: 'AAPL',
      cusip: null,
      side: 'buy',
      quantity: '10',
      price: '187.3',
      principal: '1873.00',
      commission: '1.00',
      fees: '0.00',
      net_amount: '-1874.00',
      trade_date: '2027-03-01',
      settlement_date: '2027-03-02',
      capacity: 'agent',
      accrued_interest: '0.00',
    },
  ],
};

const activity = (id: string, date: string, type: string, amount: string, extra: object = {}) => ({
  id,
  account_id: account,
  activity_type: type,
  status: 'executed',
  date,
  transaction_time: `${date}T15:00:00.000Z`,
  currency: 'USD',
  net_amount: amount,
  symbol: null,
  qty: null,
  price: null,
  per_share_amount: null,
  side: null,
  order_id: null,
  transaction_id: null,
  corporate_action_id: null,
  journal_id: null,
  conversion_id: null,
  description: null,
  ...extra,
});

const days = Array.from({ length: 31 }, (_, i) => `2027-03-${String(i + 1).padStart(2, '0')}`);
const statement: AccountStatementData = {
  object: 'account_statement',
  account_id: account,
  period_start: '2027-03-01',
  period_end: '2027-03-31',
  cash: [{ currency: 'USD', opening: '0.00', closing: '8884.36' }],
  positions: [
    {
      symbol: 'AAPL',
      asset_id: null,
      quantity: '6',
      close_price: '190.1',
      market_value: '1140.60',
      currency: 'USD',
    },
  ],
  equity: [{ currency: 'USD', amount: '10024.96' }],
  activities: [
    activity('act_0000000000000001a1b2c3d4e5', '2027-03-01', 'CSD', '10000.00'),
    activity('act_0000000000000002a1b2c3d4e5', '2027-03-01', 'FILL', '-1873.00', {
      symbol: 'AAPL',
      qty: '10',
      price: '187.3',
    }),
    activity('act_0000000000000003a1b2c3d4e5', '2027-03-01', 'FEE', '-1.00', { symbol: 'AAPL' }),
    activity('act_0000000000000004a1b2c3d4e5', '2027-03-02', 'FILL', '759.36', {
      symbol: 'AAPL',
      qty: '-4',
      price: '189.84',
    }),
    activity('act_0000000000000005a1b2c3d4e5', '2027-03-02', 'FEE', '-1.00', { symbol: 'AAPL' }),
  ],
  totals: [
    {
      currency: 'USD',
      deposits: '10000.00',
      withdrawals: '0.00',
      dividends: '0.00',
      withholding: '0.00',
      interest: '0.00',
      fees: '-2.00',
      realized_gain_loss: '10.16',
    },
  ],
  // Sample points in whole units and cents (strings, as the service writes them).
  daily_equity: days.map((date, i) => ({
    date,
    currency: 'USD',
    amount: `${10000 + ((i * 7) % 13) * 3}.${String((i * 17) % 100).padStart(2, '0')}`,
  })),
};

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'samples-'));
  const docs = resolve(__dirname, '..', 'docs');
  for (const [name, bytes] of [
    ['trade-confirmation', await renderConfirmation(confirmation, branding, at)],
    ['account-statement', await renderStatement(statement, branding, at)],
  ] as const) {
    const pdf = join(dir, `${name}.pdf`);
    writeFileSync(pdf, bytes);
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '60',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      pdf,
      join(docs, name),
    ]);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
