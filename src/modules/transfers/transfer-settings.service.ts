import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ExpiringCache } from 'src/core/cache/expiring-cache';
import { Money } from 'src/core/money/money';
import { TransferSettingsEntity } from 'src/modules/transfers/entities/transfer-settings.entity';
import { DEFAULT_TERMS, TransferTerms } from 'src/modules/transfers/transfer-terms';

/** Terms are cached this long per process: a CLI change applies everywhere within it. */
const CACHE_MS = 5000;

export type TermsChange = Partial<{
  depositFeeFlat: string;
  depositFeeBps: number;
  withdrawalFeeFlat: string;
  withdrawalFeeBps: number;
  minAmount: string;
  maxAmount: string;
}>;

function toTerms(row: TransferSettingsEntity | null): TransferTerms {
  return row
    ? {
        depositFeeFlat: new Money(row.deposit_fee_flat),
        depositFeeBps: row.deposit_fee_bps,
        withdrawalFeeFlat: new Money(row.withdrawal_fee_flat),
        withdrawalFeeBps: row.withdrawal_fee_bps,
        minAmount: new Money(row.min_amount),
        maxAmount: new Money(row.max_amount),
      }
    : DEFAULT_TERMS;
}

/** Each tenant's transfer fees and bounds (one row, or the defaults). */
@Injectable()
export class TransferSettingsService {
  private readonly cache = new ExpiringCache<TransferTerms>(CACHE_MS);

  constructor(private readonly dataSource: DataSource) {}

  /** The tenant's terms; inside a transaction pass its manager (a cache miss reads through it). */
  terms(tenantId: string, manager: EntityManager = this.dataSource.manager): Promise<TransferTerms> {
    return this.cache.get(tenantId, async () =>
      toTerms(await manager.findOneBy(TransferSettingsEntity, { tenant_id: tenantId })),
    );
  }

  /** Support (CLI): changes some terms, keeping the others. */
  async update(tenantId: string, change: TermsChange): Promise<TransferTerms> {
    const current = toTerms(
      await this.dataSource.manager.findOneBy(TransferSettingsEntity, { tenant_id: tenantId }),
    );
    const row = {
      tenant_id: tenantId,
      deposit_fee_flat: change.depositFeeFlat ?? current.depositFeeFlat.toFixed(),
      deposit_fee_bps: change.depositFeeBps ?? current.depositFeeBps,
      withdrawal_fee_flat: change.withdrawalFeeFlat ?? current.withdrawalFeeFlat.toFixed(),
      withdrawal_fee_bps: change.withdrawalFeeBps ?? current.withdrawalFeeBps,
      min_amount: change.minAmount ?? current.minAmount.toFixed(),
      max_amount: change.maxAmount ?? current.maxAmount.toFixed(),
      // Real time: the terms are tenant-wide (both modes), so no test clock applies, and the row
      // records when support really changed them.
      updated_at: new Date(),
    };
    if (new Money(row.min_amount).lte(0) || new Money(row.min_amount).gt(new Money(row.max_amount))) {
      throw new Error('The minimum amount must be above zero and at most the maximum amount.');
    }
    await this.dataSource.manager.upsert(TransferSettingsEntity, row, ['tenant_id']);
    this.cache.delete(tenantId);
    return this.terms(tenantId);
  }
}
