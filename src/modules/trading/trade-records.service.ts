import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { AssetsService } from 'src/modules/assets/assets.service';
import { addBusinessDays, wallClock } from 'src/modules/markets/calendar';
import { PricingService } from 'src/modules/pricing/pricing.service';
import { ExecutionsRepository } from 'src/modules/trading/executions.repository';
import type { Scope } from 'src/modules/trading/orders.repository';

/** Settlement calendars: T+1 business day on the currency's home market (bonds: their order's date). */
const HOME_MARKETS: Readonly<Record<string, string>> = { USD: 'XNYS', NGN: 'XNSA', KES: 'XNAI' };

/** A symbol's price at an instant, with its asset. */
export interface PriceAt {
  price: Decimal;
  assetId: string;
  bond: boolean;
}

/** One execution as a trade confirmation shows it. */
export interface ConfirmedExecution {
  executionId: string;
  orderId: string;
  symbol: string;
  cusip: string | null;
  side: 'buy' | 'sell';
  quantity: string;
  price: string;
  principal: string;
  accruedInterest: string;
  commission: string;
  /** Signed effect on cash (the FILL and FEE activities together). */
  netAmount: string;
  currency: string;
  settlementDate: string;
  executedAt: Date;
}

/**
 * What confirmations and statements read from trading: an account's executions in a span, with
 * their CUSIP and settlement date, and the closing price of a symbol at an instant.
 */
@Injectable()
export class TradeRecords {
  constructor(
    private readonly executionRecords: ExecutionsRepository,
    private readonly assets: AssetsService,
    private readonly pricing: PricingService,
  ) {}

  async executions(scope: Scope, accountId: string, from: Date, to: Date): Promise<ConfirmedExecution[]> {
    const rows = await this.executionRecords.ofAccountBetween(scope, accountId, from, to);
    const out: ConfirmedExecution[] = [];
    for (const r of rows) {
      const asset = await this.assets.resolveInScope(scope, r.asset_id);
      const cash = new Decimal(r.gross_amount).plus(r.accrued_interest);
      const commission = new Decimal(r.commission);
      const net = r.side === 'buy' ? cash.plus(commission).negated() : cash.minus(commission);
      out.push({
        executionId: r.id,
        orderId: r.order_id,
        symbol: r.symbol,
        cusip: (asset?.row.b_cusip as string | null) ?? null,
        side: r.side,
        quantity: r.quantity,
        price: r.price,
        principal: r.gross_amount,
        accruedInterest: r.accrued_interest,
        commission: r.commission,
        netAmount: net.toFixed(),
        currency: r.currency,
        settlementDate:
          r.settlement_date ??
          addBusinessDays(
            HOME_MARKETS[r.currency] ?? 'XNYS',
            wallClock(r.created_at.getTime(), 'America/New_York').date,
            1,
          ),
        executedAt: r.created_at,
      });
    }
    return out;
  }

  /**
   * A reader of the last price of a symbol at an instant (after a session: its close; null for an
   * unknown symbol) for one piece of work, such as a statement's days: each symbol's asset is read
   * once, however many instants it is priced at.
   */
  pricesIn(scope: Scope): (symbol: string, at: Date) => Promise<PriceAt | null> {
    const assets = new Map<string, ReturnType<AssetsService['resolveInScope']>>();
    return async (symbol, at) => {
      const resolving = assets.get(symbol) ?? this.assets.resolveInScope(scope, symbol);
      assets.set(symbol, resolving);
      const asset = await resolving;
      if (!asset) {
        return null;
      }
      const quote = await this.pricing.quote(asset.priced, asset.override, at);
      return { price: new Decimal(quote.last), assetId: asset.row.id, bond: Boolean(asset.priced.bond) };
    };
  }
}
