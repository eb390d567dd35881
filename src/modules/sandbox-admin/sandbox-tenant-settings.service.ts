import { Injectable } from '@nestjs/common';
import { isSupportedCurrency } from 'src/core/money/currencies';
import { Money } from 'src/core/money/money';
import { ServiceError } from 'src/core/errors/service-error';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { DefaultTierRates } from 'src/modules/cash-sweep/default-tier-rates.service';
import { CorporateActionSettings } from 'src/modules/corporate-actions/corporate-action-settings';
import {
  SandboxCashSweepRatesDto,
  SandboxCommissionDto,
  SandboxCorporateActionSettingsDto,
  SandboxTransferSettingsDto,
  UpdateSandboxCashSweepRatesDto,
  UpdateSandboxCommissionDto,
  UpdateSandboxCorporateActionSettingsDto,
  UpdateSandboxTransferSettingsDto,
} from 'src/modules/sandbox-admin/dto/sandbox-tenant-settings.dto';
import type {
  SandboxBrandingDto,
  UpdateSandboxBrandingDto,
} from 'src/modules/sandbox-admin/dto/sandbox-branding.dto';
import { BrandingService } from 'src/modules/statements/branding.service';
import { CommissionSettings } from 'src/modules/trading/commissions';
import { TransferSettingsService } from 'src/modules/transfers/transfer-settings.service';

/**
 * A tenant's commercial terms, as support sets them with the CLI (trading:commission,
 * transfers:settings, cash-sweep:rates, corporate-actions:settings), over HTTP for sandbox QA runs. Each change goes through
 * the owning module's own service, so its cache and rules are the CLI's.
 */
@Injectable()
export class SandboxTenantSettingsService {
  constructor(
    private readonly tenancy: TenancyService,
    private readonly commissions: CommissionSettings,
    private readonly transfers: TransferSettingsService,
    private readonly tiers: DefaultTierRates,
    private readonly corporateActions: CorporateActionSettings,
    private readonly brandings: BrandingService,
  ) {}

  async commission(tenantId: string, dto: UpdateSandboxCommissionDto): Promise<SandboxCommissionDto> {
    await this.requireTenant(tenantId);
    const current = await this.commissions.terms(tenantId);
    const terms =
      dto.commission_type !== undefined || dto.amount !== undefined
        ? await this.commissions.update(
            tenantId,
            dto.commission_type ?? current.type,
            dto.amount ?? current.amount.toFixed(),
          )
        : current;
    return { tenant_id: tenantId, commission_type: terms.type, amount: terms.amount.toFixed() };
  }

  async transferSettings(
    tenantId: string,
    dto: UpdateSandboxTransferSettingsDto,
  ): Promise<SandboxTransferSettingsDto> {
    await this.requireTenant(tenantId);
    const current = await this.transfers.terms(tenantId);
    const min = new Money(dto.min_amount ?? current.minAmount.toFixed());
    const max = new Money(dto.max_amount ?? current.maxAmount.toFixed());
    if (min.lte(0) || min.gt(max)) {
      throw ServiceError.invalid(
        dto.min_amount !== undefined ? 'min_amount' : 'max_amount',
        `min_amount must be above zero and at most max_amount (now ${min.toFixed()} and ${max.toFixed()}).`,
      );
    }
    const change = {
      depositFeeFlat: dto.deposit_fee_flat,
      depositFeeBps: dto.deposit_fee_bps,
      withdrawalFeeFlat: dto.withdrawal_fee_flat,
      withdrawalFeeBps: dto.withdrawal_fee_bps,
      minAmount: dto.min_amount,
      maxAmount: dto.max_amount,
    };
    const changed = Object.values(change).some((v) => v !== undefined);
    const terms = changed ? await this.transfers.update(tenantId, change) : current;
    return {
      tenant_id: tenantId,
      deposit_fee: { flat: terms.depositFeeFlat.toFixed(), bps: terms.depositFeeBps },
      withdrawal_fee: { flat: terms.withdrawalFeeFlat.toFixed(), bps: terms.withdrawalFeeBps },
      min_amount: terms.minAmount.toFixed(),
      max_amount: terms.maxAmount.toFixed(),
    };
  }

  async cashSweepRates(
    tenantId: string,
    dto: UpdateSandboxCashSweepRatesDto,
  ): Promise<SandboxCashSweepRatesDto> {
    await this.requireTenant(tenantId);
    const currency = dto.currency ?? 'USD';
    if (!isSupportedCurrency(currency)) {
      throw ServiceError.invalid(
        'currency',
        `currency must be a supported ISO 4217 code; '${currency}' is not.`,
      );
    }
    let tiers;
    try {
      tiers = await this.tiers.set(tenantId, currency, {
        accountRateBps: dto.account_rate_bps,
        correspondentRateBps: dto.correspondent_rate_bps,
      });
    } catch (err) {
      // The sum of the new rates (or a new one and the tier's current other one) is the service's rule.
      if (err instanceof Error && /add up to more than/.test(err.message)) {
        throw ServiceError.invalid(
          dto.account_rate_bps !== undefined ? 'account_rate_bps' : 'correspondent_rate_bps',
          'account_rate_bps and correspondent_rate_bps add up to more than 10000.',
        );
      }
      throw err;
    }
    return {
      tenant_id: tenantId,
      data: tiers.map((t) => ({
        id: t.id,
        livemode: t.livemode,
        name: t.name,
        currency: t.currency,
        account_rate_bps: t.account_rate_bps,
        correspondent_rate_bps: t.correspondent_rate_bps,
      })),
    };
  }

  async corporateActionSettings(
    tenantId: string,
    dto: UpdateSandboxCorporateActionSettingsDto,
  ): Promise<SandboxCorporateActionSettingsDto> {
    await this.requireTenant(tenantId);
    const bps =
      dto.dividend_withholding_bps !== undefined
        ? await this.corporateActions.setWithholdingBps(tenantId, dto.dividend_withholding_bps)
        : await this.corporateActions.withholdingBps(tenantId);
    return { tenant_id: tenantId, dividend_withholding_bps: bps };
  }

  async branding(tenantId: string, dto: UpdateSandboxBrandingDto): Promise<SandboxBrandingDto> {
    await this.requireTenant(tenantId);
    return { tenant_id: tenantId, ...(await this.brandings.update(tenantId, dto)) };
  }

  private async requireTenant(tenantId: string): Promise<void> {
    if (!(await this.tenancy.findTenant(tenantId))) {
      throw ServiceError.notFound('tenant', tenantId);
    }
  }
}
