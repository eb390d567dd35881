import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import { EventsService } from 'src/core/events/events.service';
import { newId } from 'src/core/ids/ids';
import { minorUnits } from 'src/core/money/currencies';
import { Money } from 'src/core/money/money';
import type { ResolvedAsset } from 'src/modules/assets/assets.service';
import { LedgerService } from 'src/modules/ledger/ledger.service';
import { PricingService } from 'src/modules/pricing/pricing.service';
import { fillCommission } from 'src/modules/trading/commissions';
import { remainingQuantity } from 'src/modules/trading/engine/fill-rules';
import { envelopeOrder, valueOf } from 'src/modules/trading/order-views';
import { isBondClass, OrderRow, OrderStatus } from 'src/modules/trading/order-types';
import { OrdersRepository } from 'src/modules/trading/orders.repository';
import { PositionsRepository } from 'src/modules/trading/positions.repository';

/**
 * A fill whose cash rounds to nothing in the currency's minor units (a fractional remainder of
 * 1e-8 units, say): posting it would hand over units for no money, so the engine ends the order
 * instead (docs/decisions.md, Trading: the fill's value).
 */
export class DustFillError extends Error {
  constructor(readonly currency: string) {
    super(`The fill is worth less than one minor unit of ${currency}.`);
  }
}

export interface FillInput {
  quantity: Decimal;
  price: Decimal;
  source: string;
  /** ioc: the rest is canceled after this fill, with this reason. */
  cancelRest?: string;
}

/**
 * Writes of the engine, each inside the caller's transaction: a fill (order, execution, position,
 * ledger, event) and an order's end (status, release of its hold, event). Fills are keyed by the
 * order's fill sequence (unique per order) and journals by the execution, so nothing is written twice.
 */
@Injectable()
export class OrderFills {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly positions: PositionsRepository,
    private readonly ledger: LedgerService,
    private readonly events: EventsService,
    private readonly pricing: PricingService,
  ) {}

  async fill(
    manager: EntityManager,
    order: OrderRow,
    asset: ResolvedAsset,
    input: FillInput,
    at: Date,
  ): Promise<OrderRow> {
    const scope = { tenantId: order.tenant_id, livemode: order.livemode };
    const dp = minorUnits(order.currency);
    const buy = order.side === 'buy';
    let quantity = input.quantity;
    if (!buy) {
      // Never sell more than the order reserved (a notional sell's estimate).
      quantity = Decimal.min(quantity, new Money(order.hold_amount).minus(order.hold_used));
    }
    const rawGross = valueOf(order.asset_class, quantity, input.price);
    const gross = rawGross.toDecimalPlaces(dp, Decimal.ROUND_HALF_UP);
    const accrued =
      isBondClass(order.asset_class) && order.settlement_date
        ? this.pricing.bondAccrued(asset.priced, order.settlement_date).times(quantity).div(100)
        : new Money(0);
    const cash = rawGross.plus(accrued).toDecimalPlaces(dp, Decimal.ROUND_HALF_UP);
    if (cash.lte(0)) {
      throw new DustFillError(order.currency);
    }
    let commission = fillCommission(
      { type: order.commission_type, rate: order.commission_rate },
      { quantity, gross, first: order.fill_count === 0, currency: order.currency },
    );
    if (!buy && commission.gte(cash)) {
      commission = new Money(0);
    }
    const filled = new Money(order.filled_quantity).plus(quantity);
    const done = order.notional !== null || Boolean(input.cancelRest) || filled.gte(order.quantity as string);
    const sequence = order.fill_count + 1;
    const executionId = newId('execution');
    const journalKey = `order:${order.id}:fill:${sequence}`;
    const currency = order.currency;
    const cashAccount = { kind: 'investor_cash' as const, ownerId: order.account_id, currency };
    const commissionEntry = commission.gt(0)
      ? [
          {
            account: { kind: 'commissions_revenue' as const, currency },
            direction: 'credit' as const,
            amount: commission,
          },
        ]
      : [];
    let holdUsed = new Money(order.hold_used);
    if (buy) {
      const total = cash.plus(commission);
      const journal = {
        journalKey,
        kind: 'order.fill',
        effectiveAt: at,
        reference: order.id,
        entries: [
          { account: cashAccount, direction: 'debit' as const, amount: total },
          {
            account: { kind: 'securities_settlement' as const, currency },
            direction: 'credit' as const,
            amount: cash,
          },
          ...commissionEntry,
        ],
      };
      const pending = new Money(order.hold_amount).minus(holdUsed);
      const use = Decimal.min(total, pending);
      if (use.gt(0)) {
        // Above what is still held (a market buy whose price rose), the excess needs available cash.
        await this.ledger.postHold(
          manager,
          { ...scope, holdKey: `order:${order.id}`, amount: use, releaseRest: done, journal },
          { insufficientFundsParam: 'quantity' },
        );
        holdUsed = done ? new Money(order.hold_amount) : holdUsed.plus(use);
      } else {
        await this.ledger.post(manager, { ...scope, ...journal }, { insufficientFundsParam: 'quantity' });
      }
      await this.positions.addBuy(
        manager,
        scope,
        {
          accountId: order.account_id,
          assetId: order.asset_id,
          symbol: order.symbol,
          assetClass: order.asset_class,
          currency,
        },
        quantity.toFixed(),
        gross.toFixed(),
        at,
      );
    } else {
      await this.ledger.post(manager, {
        ...scope,
        journalKey,
        kind: 'order.fill',
        effectiveAt: at,
        reference: order.id,
        entries: [
          { account: { kind: 'securities_settlement', currency }, direction: 'debit', amount: cash },
          { account: cashAccount, direction: 'credit', amount: cash.minus(commission) },
          ...commissionEntry,
        ],
      });
      await this.positions.removeSell(manager, order.account_id, order.asset_id, quantity.toFixed(), at);
      holdUsed = holdUsed.plus(quantity);
      if (done) {
        await this.positions.release(
          manager,
          order.account_id,
          order.asset_id,
          new Money(order.hold_amount).minus(holdUsed).toFixed(),
        );
      }
    }
    await this.orders.insertExecution(manager, scope, {
      id: executionId,
      order_id: order.id,
      sequence,
      account_id: order.account_id,
      asset_id: order.asset_id,
      symbol: order.symbol,
      side: order.side,
      quantity: quantity.toFixed(),
      price: input.price.toFixed(),
      gross_amount: gross.toFixed(),
      accrued_interest: cash.minus(gross).toFixed(),
      commission: commission.toFixed(),
      net_amount: (buy ? cash.plus(commission) : cash.minus(commission)).toFixed(),
      price_source: input.source,
      created_at: at,
    });
    const status: OrderStatus = input.cancelRest ? 'canceled' : done ? 'filled' : 'partially_filled';
    const updated: OrderRow = {
      ...order,
      status,
      filled_quantity: filled.toFixed(),
      filled_notional: new Money(order.filled_notional).plus(quantity.times(input.price)).toFixed(),
      fill_count: sequence,
      commission: new Money(order.commission).plus(commission).toFixed(),
      hold_used: holdUsed.toFixed(),
      updated_at: at,
      filled_at: status === 'filled' ? at : order.filled_at,
      canceled_at: input.cancelRest ? at : order.canceled_at,
      cancel_reason: input.cancelRest ?? order.cancel_reason,
    };
    if (order.notional !== null && status === 'filled') {
      updated.filled_quantity = quantity.toFixed();
    }
    await this.orders.update(manager, order.id, {
      status,
      filledQuantity: updated.filled_quantity,
      filledNotional: updated.filled_notional,
      fillCount: sequence,
      commission: updated.commission,
      holdUsed: updated.hold_used,
      waterMark: order.water_mark ?? undefined,
      triggered: order.triggered,
      filledAt: updated.filled_at ?? undefined,
      canceledAt: updated.canceled_at ?? undefined,
      cancelReason: updated.cancel_reason ?? undefined,
      updatedAt: at,
    });
    await this.events.emit(manager, {
      ...scope,
      event: input.cancelRest ? 'order.partially_filled' : done ? 'order.filled' : 'order.partially_filled',
      data: {
        ...envelopeOrder({ ...updated, status: input.cancelRest ? 'partially_filled' : status }),
        execution_id: executionId,
      },
    });
    if (input.cancelRest) {
      await this.events.emit(manager, {
        ...scope,
        event: 'order.canceled',
        data: { ...envelopeOrder(updated) },
      });
    }
    return updated;
  }

  /** Ends an open order without (further) fills: releases what it still holds. */
  async end(
    manager: EntityManager,
    order: OrderRow,
    status: 'canceled' | 'rejected',
    reason: string,
    at: Date,
  ): Promise<OrderRow> {
    const scope = { tenantId: order.tenant_id, livemode: order.livemode };
    const left = new Money(order.hold_amount).minus(order.hold_used);
    if (left.gt(0)) {
      if (order.side === 'buy') {
        await this.ledger.voidHold(manager, { ...scope, holdKey: `order:${order.id}`, at });
      } else {
        await this.positions.release(manager, order.account_id, order.asset_id, left.toFixed());
      }
    }
    const updated: OrderRow = {
      ...order,
      status,
      hold_used: order.hold_amount,
      updated_at: at,
      ...(status === 'canceled' ? { canceled_at: at, cancel_reason: reason } : { reject_reason: reason }),
    };
    await this.orders.update(manager, order.id, {
      status,
      holdUsed: order.hold_amount,
      updatedAt: at,
      ...(status === 'canceled' ? { canceledAt: at, cancelReason: reason } : { rejectReason: reason }),
    });
    await this.events.emit(manager, {
      ...scope,
      event: status === 'canceled' ? 'order.canceled' : 'order.rejected',
      data: { ...envelopeOrder(updated) },
    });
    return updated;
  }

  /** Unfilled part of an order, for messages. */
  static remaining(order: OrderRow): string {
    return remainingQuantity(order).toFixed();
  }
}
