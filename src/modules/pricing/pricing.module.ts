import { Module } from '@nestjs/common';
import { AppConfig } from 'src/core/config/app-config.service';
import { BondValuation } from 'src/modules/pricing/bond-valuation';
import { PRICE_SOURCE } from 'src/modules/pricing/price-source';
import { PriceTicks } from 'src/modules/pricing/price-ticks';
import { PricingService } from 'src/modules/pricing/pricing.service';
import { SimulatedPriceSource } from 'src/modules/pricing/simulated/simulated-price-source';

/**
 * Prices behind an interface: PRICE_SOURCE is the seeded simulation here; a vendor feed replaces it by
 * binding another PriceSource. Other modules use PricingService only.
 */
@Module({
  providers: [
    BondValuation,
    {
      provide: PRICE_SOURCE,
      inject: [AppConfig, BondValuation],
      useFactory: (config: AppConfig, bonds: BondValuation) =>
        new SimulatedPriceSource(config.get('PRICE_SEED'), bonds),
    },
    PricingService,
    PriceTicks,
  ],
  exports: [PricingService, PriceTicks],
})
export class PricingModule {}
