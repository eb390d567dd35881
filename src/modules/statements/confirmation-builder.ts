import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { minorUnits } from 'src/core/money/currencies';
import { addDays } from 'src/modules/markets/calendar';
import { TradeRecords } from 'src/modules/trading/trade-records.service';
import { startOfDay } from 'src/modules/statements/period';
import type { TradeConfirmationData } from 'src/modules/statements/statement-data';

const cash = (value: Decimal.Value, currency: string) => new Decimal(value).toFixed(minorUnits(currency));

/** The data of one account's confirmation for one trading day: every execution of that day. */
@Injectable()
export class ConfirmationBuilder {
  constructor(private readonly trades: TradeRecords) {}

  async build(
    scope: { tenantId: string; livemode: boolean },
    accountId: string,
    tradeDate: string,
  ): Promise<TradeConfirmationData> {
    const executions = await this.trades.executions(
      scope,
      accountId,
      startOfDay(tradeDate),
      startOfDay(addDays(tradeDate, 1)),
    );
    return {
      object: 'trade_confirmation',
      account_id: accountId,
      trade_date: tradeDate,
      executions: executions.map((e) => ({
        order_id: e.orderId,
        symbol: e.symbol,
        cusip: e.cusip,
        side: e.side,
        quantity: e.quantity,
        price: e.price,
        principal: cash(e.principal, e.currency),
        commission: cash(e.commission, e.currency),
        fees: cash(0, e.currency),
        net_amount: cash(e.netAmount, e.currency),
        trade_date: tradeDate,
        settlement_date: e.settlementDate,
        capacity: 'agent',
        accrued_interest: cash(e.accruedInterest, e.currency),
      })),
    };
  }
}
