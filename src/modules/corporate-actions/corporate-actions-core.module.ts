import { ActivitiesCoreModule } from 'src/modules/activities/activities-core.module';
import { Module } from '@nestjs/common';
import { AccountHoldersModule } from 'src/modules/accounts/account-holders';
import { ActionSteps } from 'src/modules/corporate-actions/action-steps';
import { Applications } from 'src/modules/corporate-actions/applications';
import { AppliedChanges } from 'src/modules/corporate-actions/applied-changes';
import { Reorganizations } from 'src/modules/corporate-actions/reorganizations';
import { CorporateActionJobs } from 'src/modules/corporate-actions/corporate-action-jobs';
import { CorporateActionSettingsModule } from 'src/modules/corporate-actions/corporate-action-settings';
import { CorporateActionAnnouncementsModule } from 'src/modules/corporate-actions/corporate-action-announcements.module';
import { EntitlementsRepository } from 'src/modules/corporate-actions/entitlements.repository';
import { TradingEngineModule } from 'src/modules/trading/trading-engine.module';

/**
 * Corporate actions without HTTP: announcements, entitlements and the clock-driven processing. The
 * API (CorporateActionsModule) and the worker process import it.
 */
@Module({
  imports: [
    TradingEngineModule,
    ActivitiesCoreModule,
    AccountHoldersModule,
    CorporateActionSettingsModule,
    CorporateActionAnnouncementsModule,
  ],
  providers: [
    EntitlementsRepository,
    AppliedChanges,
    Applications,
    Reorganizations,
    ActionSteps,
    CorporateActionJobs,
  ],
  exports: [EntitlementsRepository, CorporateActionAnnouncementsModule, CorporateActionSettingsModule],
})
export class CorporateActionsCoreModule {}
