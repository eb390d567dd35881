import { Module } from '@nestjs/common';
import { AccountsModule } from 'src/modules/accounts/accounts.module';
import { ActivitiesCoreModule } from 'src/modules/activities/activities-core.module';
import { ActivitiesController } from 'src/modules/activities/activities.controller';
import { ActivityReads } from 'src/modules/activities/activity-reads.service';

/** The activities feed of an account (docs/decisions.md, Activities). */
@Module({
  imports: [ActivitiesCoreModule, AccountsModule],
  controllers: [ActivitiesController],
  providers: [ActivityReads],
  exports: [ActivitiesCoreModule],
})
export class ActivitiesModule {}
