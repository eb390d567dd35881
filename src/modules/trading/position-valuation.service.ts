import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { DataSource, EntityManager } from 'typeorm';
import { ClockService } from 'src/core/clock/clock.service';
import type { EquityContributor } from 'src/modules/accounts/account-equity';
import type { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';
import { AssetsService } from 'src/modules/assets/assets.service';
import { PricingService } from 'src/modules/pricing/pricing.service';
import type { PositionRow } from 'src/modules/trading/order-types';
import type { Scope } from 'src/modules/trading/orders.repository';
import { PositionsRepository } from 'src/modules/trading/positions.repository';

/** A position's market value in its currency. */
export interface PositionValue {
  currency: string;
  value: Decimal;
}

/**
 * What positions are worth: at the last price (position reads) or at the last close (an account's
 * `last_equity`, to which trading contributes its positions in the account's primary currency).
 */
@Injectable()
export class PositionValuation implements EquityContributor {
  constructor(
    private readonly dataSource: DataSource,
    private readonly assets: AssetsService,
    private readonly pricing: PricingService,
    private readonly clock: ClockService,
    private readonly positions: PositionsRepository,
  ) {}

  /**
   * last_equity's share from positions: per account, its positions at the last close in the account's
   * primary currency (no FX: positions in other currencies are not counted).
   */
  async valueOf(accounts: InvestmentAccountEntity[], manager?: EntityManager): Promise<Map<string, Decimal>> {
    const result = new Map<string, Decimal>();
    const byScope = new Map<string, InvestmentAccountEntity[]>();
    for (const a of accounts) {
      const key = `${a.tenant_id}|${a.livemode}`;
      byScope.set(key, [...(byScope.get(key) ?? []), a]);
    }
    for (const group of byScope.values()) {
      const scope = { tenantId: group[0].tenant_id, livemode: group[0].livemode };
      const values = await this.positionValues(
        scope,
        group.map((a) => a.id),
        manager,
      );
      for (const a of group) {
        const own = (values.get(a.id) ?? []).filter((v) => v.currency === a.currency);
        result.set(
          a.id,
          own.reduce((sum, v) => sum.plus(v.value), new Decimal(0)),
        );
      }
    }
    return result;
  }

  /**
   * Market value of the positions of accounts per account id, at the last close (`last_equity`: the
   * previous close while a session is open, else the last price).
   */
  async positionValues(
    scope: Scope,
    accountIds: string[],
    manager?: EntityManager,
  ): Promise<Map<string, PositionValue[]>> {
    const rows = await this.positions.listOf(scope, accountIds, manager ?? this.dataSource.manager);
    const result = new Map<string, PositionValue[]>();
    if (rows.length === 0) {
      return result;
    }
    const prices = await this.prices(scope, rows, await this.clock.now(scope, manager), 'close', manager);
    for (const p of rows) {
      const list = result.get(p.account_id) ?? [];
      const value = new Decimal(p.quantity).times(prices.get(p.asset_id) as Decimal);
      list.push({
        currency: p.currency,
        value:
          p.asset_class === 'bond' || p.asset_class === 'bill' || p.asset_class === 'note'
            ? value.div(100)
            : value,
      });
      result.set(p.account_id, list);
    }
    return result;
  }

  /** The price of each asset of the positions by asset id: the last, or the last close; 0 when unknown. */
  async prices(
    scope: Scope,
    rows: PositionRow[],
    at: Date,
    basis: 'last' | 'close',
    manager?: EntityManager,
  ): Promise<Map<string, Decimal>> {
    const prices = new Map<string, Decimal>();
    for (const assetId of new Set(rows.map((r) => r.asset_id))) {
      const asset = await this.assets.resolveInScope(scope, assetId, manager);
      if (!asset) {
        prices.set(assetId, new Decimal(0));
        continue;
      }
      const quote = await this.pricing.quote(asset.priced, asset.override, at);
      prices.set(
        assetId,
        basis === 'close' && quote.session === 'regular' ? quote.previousClose : quote.last,
      );
    }
    return prices;
  }
}
