import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { OrderFills } from 'src/modules/trading/engine/order-fills';
import { OrdersRepository, Scope } from 'src/modules/trading/orders.repository';
import {
  EligibleHolder,
  HolderPosition,
  HolderPositionsRepository,
} from 'src/modules/trading/holder-positions.repository';
import type { PositionAsset } from 'src/modules/trading/positions.repository';

export type { EligibleHolder, HolderPosition, PositionAsset };

/**
 * What corporate actions change in trading, each inside the caller's transaction: the holders of an
 * asset in account order (batches), a position's new quantity and cost basis, and the cancellation
 * of an asset's open orders (holds released, `order.canceled`).
 */
@Injectable()
export class PositionAdjustments {
  constructor(
    private readonly fills: OrderFills,
    private readonly orders: OrdersRepository,
    private readonly positions: HolderPositionsRepository,
  ) {}

  /** Up to `limit` positions of an asset above zero after `afterAccountId`, locked FOR UPDATE. */
  holders(
    manager: EntityManager,
    scope: Scope,
    assetId: string,
    afterAccountId: string | null,
    limit: number,
  ): Promise<HolderPosition[]> {
    return this.positions.holdersOfAsset(manager, scope, assetId, afterAccountId, limit);
  }

  /** Holders' quantities at `at` (the close before an ex date), `limit` per call. */
  eligibleAt(
    manager: EntityManager,
    scope: Scope,
    assetId: string,
    at: Date,
    afterAccountId: string | null,
    limit: number,
  ): Promise<EligibleHolder[]> {
    return this.positions.eligibleAt(manager, scope, assetId, at, afterAccountId, limit);
  }

  /** Total cost basis of an asset's positions of some accounts, by account id. */
  basisOf(
    manager: EntityManager,
    scope: Scope,
    assetId: string,
    accountIds: string[],
  ): Promise<Map<string, string>> {
    return this.positions.basisOf(manager, scope, assetId, accountIds);
  }

  /** Sets held positions' quantities and total cost bases (a split, cash in lieu or merger). */
  adjust(
    manager: EntityManager,
    scope: Scope,
    assetId: string,
    changes: Array<{ accountId: string; quantity: string; totalCostBasis: string }>,
    at: Date,
  ): Promise<void> {
    return this.positions.adjust(manager, scope, assetId, changes, at);
  }

  /** A symbol change of holders' positions: the new symbol, quantity, basis and dates kept. */
  rename(
    manager: EntityManager,
    scope: Scope,
    assetId: string,
    accountIds: string[],
    symbol: string,
  ): Promise<void> {
    return this.positions.rename(manager, scope, assetId, accountIds, symbol);
  }

  /** A stock merger: adds units and their cost basis to each account's position in the acquirer. */
  addUnits(
    manager: EntityManager,
    scope: Scope,
    asset: Omit<PositionAsset, 'accountId'>,
    units: Array<{ accountId: string; quantity: string; totalCostBasis: string }>,
    at: Date,
  ): Promise<void> {
    return this.positions.addUnits(manager, scope, asset, units, at);
  }

  /** A symbol change: the asset's open orders (left open) show the new symbol. */
  renameOpenOrdersOfAsset(
    manager: EntityManager,
    scope: Scope,
    assetId: string,
    symbol: string,
    at: Date,
  ): Promise<number> {
    return this.orders.renameOpenOfAsset(manager, scope, assetId, symbol, at);
  }

  /**
   * Cancels up to `limit` open orders of an asset (oldest first) with `reason`: buy holds voided,
   * reserved units released, `order.canceled` sent. Answers how many it canceled.
   */
  async cancelOpenOrdersOfAsset(
    manager: EntityManager,
    scope: Scope,
    assetId: string,
    reason: string,
    at: Date,
    limit: number,
  ): Promise<number> {
    const open = await this.orders.lockOpenOfAsset(manager, scope, assetId, limit);
    for (const order of open) {
      await this.fills.end(manager, order, 'canceled', reason, at);
    }
    return open.length;
  }
}
