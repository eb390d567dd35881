import { Module } from '@nestjs/common';
import { AppConfigModule } from 'src/core/config/config.module';
import { DatabaseModule } from 'src/core/database/database.module';
import { EventsCoreModule } from 'src/core/events/events-core.module';
import { LoggingModule } from 'src/core/logging/logging.module';
import { RedisModule } from 'src/core/redis/redis.module';
import { TenancyModule } from 'src/core/tenancy/tenancy.module';

/** The queue-worker process: no HTTP, only the modules whose jobs it runs. */
@Module({
  imports: [AppConfigModule, LoggingModule, DatabaseModule, RedisModule, TenancyModule, EventsCoreModule],
})
export class WorkerModule {}
