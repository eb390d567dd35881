import { Injectable } from '@nestjs/common';
import type Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import { EventsService } from 'src/core/events/events.service';
import { newId } from 'src/core/ids/ids';
import { Money } from 'src/core/money/money';
import type { ResolvedAsset } from 'src/modules/assets/assets.service';
import { ActivitiesService } from 'src/modules/activities/activities.service';
import { LedgerService } from 'src/modules/ledger/ledger.service';
import { PricingService } from 'src/modules/pricing/pricing.service';
import {
  executionOf,
  fillJournal,
  FillInput,
  FillPlan,
  planFill,
} from 'src/modules/trading/engine/fill-amounts';
import { fillActivities } from 'src/modules/trading/engine/fill-activities';
import { remainingQuantity } from 'src/modules/trading/engine/fill-rules';
import { ExecutionsRepository } from 'src/modules/trading/executions.repository';
import { envelopeOrder } from 'src/modules/trading/order-views';
import { isBondClass, OrderRow } from 'src/modules/trading/order-types';
import { OrderChange, OrdersRepository } from 'src/modules/trading/orders.repository';
import { PositionsRepository } from 'src/modules/trading/positions.repository';

/**
 * Writes of the engine, each inside the caller's transaction: a fill (order, execution, position,
 * ledger, event) and an order's end (status, release of its hold, event). Fills are keyed by the
 * order's fill sequence (unique per order) and journals by the execution, so nothing is written twice.
 * What a fill amounts to is worked out first, without the database (`planFill`); the writes follow it.
 */
@Injectable()
export class OrderFills {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly executions: ExecutionsRepository,
    private readonly positions: PositionsRepository,
    private readonly ledger: LedgerService,
    private readonly events: EventsService,
    private readonly pricing: PricingService,
    private readonly activities: ActivitiesService,
  ) {}

  async fill(
    manager: EntityManager,
    order: OrderRow,
    asset: ResolvedAsset,
    input: FillInput,
    at: Date,
  ): Promise<OrderRow> {
    const scope = { tenantId: order.tenant_id, livemode: order.livemode };
    const plan = planFill(order, input, this.accruedPer100(order, asset), at);
    const executionId = newId('execution');
    if (order.side === 'buy') {
      await this.settleBuy(manager, order, plan, at);
    } else {
      await this.settleSell(manager, order, plan, at);
    }
    await this.executions.insert(manager, scope, executionOf(order, plan, input, executionId, at));
    const { quantity, cash, commission } = plan.amounts;
    await this.activities.record(
      manager,
      scope,
      fillActivities(order, {
        executionSequence: plan.sequence,
        quantity,
        price: input.price,
        cash,
        commission,
        at,
      }),
    );
    await this.orders.update(manager, order.id, fillChange(order, plan.order, at));
    await this.emitFill(manager, plan.order, plan.done, input.cancelRest, executionId);
    return plan.order;
  }

  /** A bond's accrued interest per 100 of face to the order's settlement date; null for the rest. */
  private accruedPer100(order: OrderRow, asset: ResolvedAsset): Decimal | null {
    return isBondClass(order.asset_class) && order.settlement_date
      ? this.pricing.bondAccrued(asset.priced, order.settlement_date)
      : null;
  }

  /**
   * A buy's cash and units: the journal posts from the order's hold as far as it reaches (above it, a
   * market buy whose price rose, the excess needs available cash), then the position grows.
   */
  private async settleBuy(manager: EntityManager, order: OrderRow, plan: FillPlan, at: Date): Promise<void> {
    const scope = { tenantId: order.tenant_id, livemode: order.livemode };
    const journal = fillJournal(order, plan, at);
    const funds = { insufficientFundsParam: 'quantity' };
    if (plan.fromHold.gt(0)) {
      const hold = { holdKey: `order:${order.id}`, amount: plan.fromHold, releaseRest: plan.done, journal };
      await this.ledger.postHold(manager, { ...scope, ...hold }, funds);
    } else {
      await this.ledger.post(manager, { ...scope, ...journal }, funds);
    }
    await this.positions.addBuy(
      manager,
      scope,
      {
        accountId: order.account_id,
        assetId: order.asset_id,
        symbol: order.symbol,
        assetClass: order.asset_class,
        currency: order.currency,
      },
      plan.amounts.quantity.toFixed(),
      plan.amounts.gross.toFixed(),
      at,
    );
  }

  /** A sell's cash and units: the journal, the units out of the position, its reserve released once done. */
  private async settleSell(manager: EntityManager, order: OrderRow, plan: FillPlan, at: Date): Promise<void> {
    const scope = { tenantId: order.tenant_id, livemode: order.livemode };
    await this.ledger.post(manager, { ...scope, ...fillJournal(order, plan, at) });
    const quantity = plan.amounts.quantity.toFixed();
    await this.positions.removeSell(manager, order.account_id, order.asset_id, quantity, at);
    if (plan.done) {
      const unused = new Money(order.hold_amount).minus(plan.order.hold_used).toFixed();
      await this.positions.release(manager, order.account_id, order.asset_id, unused);
    }
  }

  /**
   * `order.filled` or `order.partially_filled` with the execution's id; an ioc whose rest is canceled
   * reports the fill as partial, then `order.canceled`.
   */
  private async emitFill(
    manager: EntityManager,
    updated: OrderRow,
    done: boolean,
    cancelRest: string | undefined,
    executionId: string,
  ): Promise<void> {
    const scope = { tenantId: updated.tenant_id, livemode: updated.livemode };
    await this.events.emit(manager, {
      ...scope,
      event: cancelRest ? 'order.partially_filled' : done ? 'order.filled' : 'order.partially_filled',
      data: {
        ...envelopeOrder({ ...updated, status: cancelRest ? 'partially_filled' : updated.status }),
        execution_id: executionId,
      },
    });
    if (cancelRest) {
      await this.events.emit(manager, {
        ...scope,
        event: 'order.canceled',
        data: { ...envelopeOrder(updated) },
      });
    }
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

/** The columns a fill changes on the order row. */
function fillChange(order: OrderRow, updated: OrderRow, at: Date): OrderChange {
  return {
    status: updated.status,
    filledQuantity: updated.filled_quantity,
    filledNotional: updated.filled_notional,
    fillCount: updated.fill_count,
    priceDecimals: updated.price_decimals,
    commission: updated.commission,
    holdUsed: updated.hold_used,
    waterMark: order.water_mark ?? undefined,
    triggered: order.triggered,
    filledAt: updated.filled_at ?? undefined,
    canceledAt: updated.canceled_at ?? undefined,
    cancelReason: updated.cancel_reason ?? undefined,
    updatedAt: at,
  };
}
