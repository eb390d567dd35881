import { Module } from '@nestjs/common';
import { ActivitiesRepository } from 'src/modules/activities/activities.repository';
import { ActivitiesService } from 'src/modules/activities/activities.service';

/**
 * The activities table and ActivitiesService.record without HTTP: every module that changes an
 * account's cash or positions (trading, transfers, cash sweep; later corporate actions, journals,
 * conversions) imports it and records in its own transaction. The API and the worker import it.
 */
@Module({
  providers: [ActivitiesRepository, ActivitiesService],
  exports: [ActivitiesService],
})
export class ActivitiesCoreModule {}
