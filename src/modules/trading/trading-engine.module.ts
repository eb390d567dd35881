import { Module } from '@nestjs/common';
import { AssetCatalogModule } from 'src/modules/assets/asset-catalog.module';
import { LedgerModule } from 'src/modules/ledger/ledger.module';
import { PricingModule } from 'src/modules/pricing/pricing.module';
import { OrderEngine } from 'src/modules/trading/engine/order-engine.service';
import { OrderFills } from 'src/modules/trading/engine/order-fills';
import { OrdersRepository } from 'src/modules/trading/orders.repository';
import { PositionsRepository } from 'src/modules/trading/positions.repository';
import { TradingSettingsModule } from 'src/modules/trading/trading-settings.module';

/**
 * The execution engine without HTTP: the API (TradingModule) and the worker process both import it,
 * so either runs session events, price ticks and the periodic sweep.
 */
@Module({
  imports: [LedgerModule, AssetCatalogModule, PricingModule, TradingSettingsModule],
  providers: [OrdersRepository, PositionsRepository, OrderFills, OrderEngine],
  exports: [
    OrdersRepository,
    PositionsRepository,
    OrderFills,
    OrderEngine,
    TradingSettingsModule,
    LedgerModule,
    AssetCatalogModule,
    PricingModule,
  ],
})
export class TradingEngineModule {}
