import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';
import { ActivitiesCoreModule } from 'src/modules/activities/activities-core.module';
import { AssetCatalogModule } from 'src/modules/assets/asset-catalog.module';
import { LedgerModule } from 'src/modules/ledger/ledger.module';
import { PricingModule } from 'src/modules/pricing/pricing.module';
import { OrderEngine } from 'src/modules/trading/engine/order-engine.service';
import { OrderFills } from 'src/modules/trading/engine/order-fills';
import { SessionEvents } from 'src/modules/trading/engine/session-events';
import { ExecutionsRepository } from 'src/modules/trading/executions.repository';
import { ExecutionEntity } from 'src/modules/trading/entities/execution.entity';
import { OrderEntity } from 'src/modules/trading/entities/order.entity';
import { PositionEntity } from 'src/modules/trading/entities/position.entity';
import { OrdersRepository } from 'src/modules/trading/orders.repository';
import { PositionAdjustments } from 'src/modules/trading/position-adjustments';
import { HolderPositionsRepository } from 'src/modules/trading/holder-positions.repository';
import { PositionsRepository } from 'src/modules/trading/positions.repository';
import { TradeRecords } from 'src/modules/trading/trade-records.service';
import { TradingSettingsModule } from 'src/modules/trading/trading-settings.module';

/**
 * The execution engine without HTTP: the API (TradingModule) and the worker process both import it,
 * so either runs session events, price ticks and the periodic sweep.
 */
@Module({
  imports: [
    // Entities for the schema check only (the repositories query these tables with their own SQL),
    // with the accounts' entity their foreign keys name.
    TypeOrmModule.forFeature([OrderEntity, ExecutionEntity, PositionEntity, InvestmentAccountEntity]),
    LedgerModule,
    AssetCatalogModule,
    PricingModule,
    TradingSettingsModule,
    ActivitiesCoreModule,
  ],
  providers: [
    OrdersRepository,
    ExecutionsRepository,
    PositionsRepository,
    OrderFills,
    OrderEngine,
    SessionEvents,
    PositionAdjustments,
    HolderPositionsRepository,
    TradeRecords,
  ],
  exports: [
    TradeRecords,
    OrdersRepository,
    ExecutionsRepository,
    PositionsRepository,
    OrderFills,
    OrderEngine,
    SessionEvents,
    PositionAdjustments,
    TradingSettingsModule,
    LedgerModule,
    AssetCatalogModule,
    PricingModule,
  ],
})
export class TradingEngineModule {}
