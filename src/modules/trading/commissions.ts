import Decimal from 'decimal.js';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ExpiringCache } from 'src/core/cache/expiring-cache';
import { minorUnits } from 'src/core/money/currencies';
import { Money } from 'src/core/money/money';
import type { CommissionType } from 'src/modules/trading/order-types';

/** A tenant's commission: a flat amount per order (`notional`), per unit (`qty`) or basis points (`bps`). */
export interface CommissionTerms {
  type: CommissionType;
  amount: Decimal;
}

const DEFAULT_TERMS: CommissionTerms = { type: 'notional', amount: new Money(0) };
const CACHE_MS = 5000;

/** Commission of one fill, in the currency's minor units (half up). A flat fee is charged on the first fill. */
export function fillCommission(
  terms: { type: CommissionType; rate: Decimal.Value },
  fill: { quantity: Decimal; gross: Decimal; first: boolean; currency: string },
): Decimal {
  const rate = new Money(terms.rate);
  const raw =
    terms.type === 'notional'
      ? fill.first
        ? rate
        : new Money(0)
      : terms.type === 'qty'
        ? rate.times(fill.quantity)
        : fill.gross.times(rate).div(10_000);
  return raw.toDecimalPlaces(minorUnits(fill.currency), Decimal.ROUND_HALF_UP);
}

/** Each tenant's commission terms (one row, or zero), changed by support through the CLI. */
@Injectable()
export class CommissionSettings {
  private readonly cache = new ExpiringCache<CommissionTerms>(CACHE_MS);

  constructor(private readonly dataSource: DataSource) {}

  terms(tenantId: string, manager: EntityManager = this.dataSource.manager): Promise<CommissionTerms> {
    return this.cache.get(tenantId, async () => {
      const rows: Array<{ commission_type: CommissionType; amount: string }> = await manager.query(
        `SELECT commission_type, amount FROM commission_settings WHERE tenant_id = $1`,
        [tenantId],
      );
      return rows[0] ? { type: rows[0].commission_type, amount: new Money(rows[0].amount) } : DEFAULT_TERMS;
    });
  }

  async update(tenantId: string, type: CommissionType, amount: string): Promise<CommissionTerms> {
    await this.dataSource.query(
      `INSERT INTO commission_settings (tenant_id, commission_type, amount, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (tenant_id) DO UPDATE SET commission_type = EXCLUDED.commission_type,
         amount = EXCLUDED.amount, updated_at = now()`,
      [tenantId, type, amount],
    );
    this.cache.delete(tenantId);
    return this.terms(tenantId);
  }
}
