import { Module } from '@nestjs/common';
import { AppConfigModule } from 'src/core/config/config.module';
import { DatabaseModule } from 'src/core/database/database.module';
import { RedisModule } from 'src/core/redis/redis.module';
import { TenancyModule } from 'src/core/tenancy/tenancy.module';
import { EventsCoreModule } from 'src/core/events/events-core.module';
import { QueueModule } from 'src/core/queue/queue.module';
import { TradingSettingsModule } from 'src/modules/trading/trading-settings.module';
import { ClockModule } from 'src/core/clock/clock.module';
import { CashSweepSettingsModule } from 'src/modules/cash-sweep/default-tier-rates.service';
import { TransferSettingsModule } from 'src/modules/transfers/transfer-settings.module';
import { WebhookDeliveryModule } from 'src/modules/webhooks/delivery/webhook-delivery.module';

/** What support commands need: configuration, the database and the services they drive. */
@Module({
  imports: [
    AppConfigModule,
    DatabaseModule,
    RedisModule,
    TenancyModule,
    EventsCoreModule,
    // The CLI only enqueues (replays); it never consumes.
    QueueModule.forRoot({ consumers: false }),
    WebhookDeliveryModule,
    TransferSettingsModule,
    TradingSettingsModule,
    ClockModule,
    CashSweepSettingsModule,
  ],
})
export class CliModule {}
