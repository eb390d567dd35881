import { Module } from '@nestjs/common';
import { AssetsModule } from 'src/modules/assets/assets.module';
import { MarketDataController } from 'src/modules/market-data/market-data.controller';
import { MarketDataService } from 'src/modules/market-data/market-data.service';
import { PricingModule } from 'src/modules/pricing/pricing.module';

/** The Market Data add-on (tenants with the market_data product). */
@Module({
  imports: [AssetsModule, PricingModule],
  controllers: [MarketDataController],
  providers: [MarketDataService],
})
export class MarketDataModule {}
