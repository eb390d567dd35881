import { Module } from '@nestjs/common';
import { AppConfigModule } from 'src/core/config/config.module';
import { DatabaseModule } from 'src/core/database/database.module';
import { RedisModule } from 'src/core/redis/redis.module';
import { TenancyModule } from 'src/core/tenancy/tenancy.module';
import { EventsCoreModule } from 'src/core/events/events-core.module';

/** What support commands need: configuration, the database and the services they drive. */
@Module({
  imports: [AppConfigModule, DatabaseModule, RedisModule, TenancyModule, EventsCoreModule],
})
export class CliModule {}
