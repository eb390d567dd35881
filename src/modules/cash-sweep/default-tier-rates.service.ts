import { Injectable, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ClockService } from 'src/core/clock/clock.service';
import { AprTiersRepository, TierRow } from 'src/modules/cash-sweep/apr-tiers.repository';

/** Support (CLI): a tenant's default tier rates per currency, in both modes at once. */
@Injectable()
export class DefaultTierRates {
  constructor(
    private readonly tiers: AprTiersRepository,
    private readonly clock: ClockService,
    private readonly dataSource: DataSource,
  ) {}

  /** The default tier of each mode, with the rates changed where given. */
  set(
    tenantId: string,
    currency: string,
    rates: { accountRateBps?: number; correspondentRateBps?: number },
  ): Promise<TierRow[]> {
    return this.dataSource.transaction(async (manager) => {
      const result: TierRow[] = [];
      for (const livemode of [false, true]) {
        const scope = { tenantId, livemode };
        const now = await this.clock.now(scope, manager);
        const tier = await this.tiers.ensureDefault(manager, scope, currency, now);
        const account = rates.accountRateBps ?? tier.account_rate_bps;
        const correspondent = rates.correspondentRateBps ?? tier.correspondent_rate_bps;
        if (account + correspondent > 10_000) {
          throw new Error('The account and correspondent rates add up to more than 10000 bps.');
        }
        if (account !== tier.account_rate_bps || correspondent !== tier.correspondent_rate_bps) {
          await this.tiers.update(
            manager,
            tier.id,
            { account_rate_bps: account, correspondent_rate_bps: correspondent },
            now,
          );
        }
        result.push((await this.tiers.find(manager, scope, tier.id))!);
      }
      return result;
    });
  }
}

/** What the CLI needs of cash sweep (no jobs, no HTTP). */
@Module({ providers: [AprTiersRepository, DefaultTierRates], exports: [DefaultTierRates] })
export class CashSweepSettingsModule {}
