import type { ActivityDto } from 'src/modules/activities/dto/activity.dto';

/** docs/decisions.md, Trade confirmations and monthly statements: the JSON of a trade confirmation. */
export interface TradeConfirmationData {
  object: 'trade_confirmation';
  account_id: string;
  trade_date: string;
  executions: Array<{
    order_id: string;
    symbol: string;
    cusip: string | null;
    side: 'buy' | 'sell';
    quantity: string;
    price: string;
    principal: string;
    commission: string;
    fees: string;
    net_amount: string;
    trade_date: string;
    settlement_date: string;
    capacity: 'agent';
    accrued_interest: string;
  }>;
}

/** The JSON of a monthly statement (plus `daily_equity`, the points of its chart). */
export interface AccountStatementData {
  object: 'account_statement';
  account_id: string;
  period_start: string;
  period_end: string;
  cash: Array<{ currency: string; opening: string; closing: string }>;
  positions: Array<{
    symbol: string;
    asset_id: string | null;
    quantity: string;
    close_price: string;
    market_value: string;
    currency: string;
  }>;
  equity: Array<{ currency: string; amount: string }>;
  activities: ActivityDto[];
  totals: Array<{
    currency: string;
    deposits: string;
    withdrawals: string;
    dividends: string;
    withholding: string;
    interest: string;
    fees: string;
    realized_gain_loss: string;
  }>;
  daily_equity: Array<{ date: string; currency: string; amount: string }>;
}
