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
import { SchedulerModule } from 'src/core/scheduler/scheduler.module';
import { CorporateActionAnnouncementsModule } from 'src/modules/corporate-actions/corporate-action-announcements.module';
import { CorporateActionSettingsModule } from 'src/modules/corporate-actions/corporate-action-settings';
import { BrandingModule } from 'src/modules/statements/branding.module';
import { TransferSettingsModule } from 'src/modules/transfers/transfer-settings.module';
import { FxSettingsModule } from 'src/modules/fx/fx-settings.module';
import { JournalSettingsModule } from 'src/modules/journals/journal-settings.service';
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
    FxSettingsModule,
    JournalSettingsModule,
    // The import stores announcements and schedules their processing in every tenant and mode.
    SchedulerModule,
    CorporateActionAnnouncementsModule,
    CorporateActionSettingsModule,
    BrandingModule,
  ],
})
export class CliModule {}
