import type { Branding } from 'src/modules/statements/branding.service';
import { PdfWriter } from 'src/modules/statements/pdf/pdf-writer';
import type { AccountStatementData, TradeConfirmationData } from 'src/modules/statements/statement-data';

/** The PDF of a trade confirmation: one row per execution, as its JSON says. */
export async function renderConfirmation(
  data: TradeConfirmationData,
  branding: Branding,
  at: Date,
): Promise<Buffer> {
  const pdf = await PdfWriter.create(branding, `Trade confirmation ${data.trade_date}`, at);
  pdf.line(`Account ${data.account_id}`);
  pdf.line(`Trade date ${data.trade_date}`);
  pdf.line('Capacity: agent. Securities settle on the settlement date shown.');
  pdf.heading('Executions');
  for (const e of data.executions) {
    pdf.line(`Order ${e.order_id}`, { bold: true });
    pdf.line(`${e.side.toUpperCase()} ${e.quantity} ${e.symbol} CUSIP ${e.cusip ?? 'n/a'} at ${e.price}`);
    pdf.line(`Trade date ${e.trade_date} Settlement date ${e.settlement_date} Capacity ${e.capacity}`);
    pdf.line(
      `Principal ${e.principal} Accrued interest ${e.accrued_interest} Commission ${e.commission} ` +
        `Fees ${e.fees} Net amount ${e.net_amount}`,
    );
  }
  return pdf.bytes();
}

/** The PDF of a monthly statement: cash, positions, equity and its chart, totals, activities. */
// eslint-disable-next-line max-lines-per-function -- the statement page drawn top to bottom, section after section, as the investor reads it.
export async function renderStatement(
  data: AccountStatementData,
  branding: Branding,
  at: Date,
): Promise<Buffer> {
  const pdf = await PdfWriter.create(
    branding,
    `Account statement ${data.period_start} to ${data.period_end}`,
    at,
  );
  pdf.line(`Account ${data.account_id}`);
  pdf.heading('Cash');
  pdf.table(
    [
      { header: 'Currency', x: 0 },
      { header: 'Opening cash', x: 200, right: true },
      { header: 'Closing cash', x: 330, right: true },
    ],
    data.cash.map((c) => [c.currency, c.opening, c.closing]),
  );
  pdf.heading('Positions at the last close');
  pdf.table(
    [
      { header: 'Symbol', x: 0 },
      { header: 'Quantity', x: 180, right: true },
      { header: 'Close price', x: 280, right: true },
      { header: 'Market value', x: 400, right: true },
      { header: 'Currency', x: 420 },
    ],
    data.positions.map((p) => [p.symbol, p.quantity, p.close_price, p.market_value, p.currency]),
  );
  pdf.heading('Equity');
  data.equity.forEach((e) => pdf.line(`Equity ${e.currency} ${e.amount}`));
  for (const currency of data.equity.map((e) => e.currency)) {
    const points = data.daily_equity.filter((p) => p.currency === currency);
    // Plot coordinates only: the amounts themselves are printed from their decimal strings.
    pdf.chart(
      `Daily equity (${currency})`,
      points.map((p) => Number(p.amount)),
    );
  }
  pdf.heading('Totals');
  data.totals.forEach((t) =>
    pdf.line(
      `${t.currency} Deposits ${t.deposits} Withdrawals ${t.withdrawals} Dividends ${t.dividends} ` +
        `Withholding ${t.withholding} Interest ${t.interest} Fees ${t.fees} Realized ${t.realized_gain_loss}`,
    ),
  );
  pdf.heading('Activities');
  pdf.table(
    [
      { header: 'Date', x: 0 },
      { header: 'Type', x: 60 },
      { header: 'Symbol', x: 100 },
      { header: 'Qty', x: 180, right: true },
      { header: 'Price', x: 240, right: true },
      { header: 'Net amount', x: 320, right: true },
      { header: 'Currency', x: 330 },
      { header: 'Id', x: 370 },
    ],
    data.activities.map((a) => [
      a.date,
      a.activity_type,
      a.symbol ?? '',
      a.qty ?? '',
      a.price ?? '',
      a.net_amount,
      a.currency,
      a.id,
    ]),
  );
  return pdf.bytes();
}
