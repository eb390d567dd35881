import { Module } from '@nestjs/common';
import { AssetCatalogModule } from 'src/modules/assets/asset-catalog.module';
import { Announcements } from 'src/modules/corporate-actions/announcements.service';
import { CorporateActionsRepository } from 'src/modules/corporate-actions/corporate-actions.repository';

/**
 * Announcements alone (store, schedule, announce): the support CLI's import uses it without the
 * processing. Needs SchedulerModule, ClockModule and EventsCoreModule from the process.
 */
@Module({
  imports: [AssetCatalogModule],
  providers: [CorporateActionsRepository, Announcements],
  exports: [CorporateActionsRepository, Announcements],
})
export class CorporateActionAnnouncementsModule {}
