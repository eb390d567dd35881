import { Module } from '@nestjs/common';
import { ClockModule } from 'src/core/clock/clock.module';
import { AppConfigModule } from 'src/core/config/config.module';
import { DatabaseModule } from 'src/core/database/database.module';
import { ReplicasModule } from 'src/core/database/replicas/replicas.module';
import { EventsCoreModule } from 'src/core/events/events-core.module';
import { LoggingModule } from 'src/core/logging/logging.module';
import { QueueModule } from 'src/core/queue/queue.module';
import { RedisModule } from 'src/core/redis/redis.module';
import { SchedulerModule } from 'src/core/scheduler/scheduler.module';
import { TenancyModule } from 'src/core/tenancy/tenancy.module';
import { TradingEngineModule } from 'src/modules/trading/trading-engine.module';
import { CashSweepCoreModule } from 'src/modules/cash-sweep/cash-sweep-core.module';
import { CorporateActionsCoreModule } from 'src/modules/corporate-actions/corporate-actions-core.module';
import { StatementsCoreModule } from 'src/modules/statements/statements-core.module';
import { RequestLogPurgeModule } from 'src/modules/request-logs/request-log-purge';
import { TransferLifecycleModule } from 'src/modules/transfers/transfer-lifecycle.module';
import { WebhookDeliveryModule } from 'src/modules/webhooks/delivery/webhook-delivery.module';

/**
 * The queue-worker process: no HTTP, only the modules whose jobs it runs. It always consumes
 * (whatever WORKER_IN_PROCESS says) and runs the outbox relay and the scheduled-job relay. Every
 * module with clock-driven jobs is here so its handlers are registered (transfer lifecycle, trading
 * engine, cash sweep, corporate actions, request log purge).
 */
@Module({
  imports: [
    AppConfigModule,
    LoggingModule,
    DatabaseModule,
    ReplicasModule,
    RedisModule,
    TenancyModule,
    EventsCoreModule,
    ClockModule,
    QueueModule.forRoot({ consumers: true }),
    SchedulerModule,
    WebhookDeliveryModule,
    TransferLifecycleModule,
    TradingEngineModule,
    CashSweepCoreModule,
    CorporateActionsCoreModule,
    StatementsCoreModule,
    RequestLogPurgeModule,
  ],
})
export class WorkerModule {}
