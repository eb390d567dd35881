import { Module } from '@nestjs/common';
import { CashSweepSettingsModule } from 'src/modules/cash-sweep/default-tier-rates.service';
import { FxSettingsModule } from 'src/modules/fx/fx-settings.module';
import { JournalSettingsModule } from 'src/modules/journals/journal-settings.service';
import { SandboxFxJournalSettingsController } from 'src/modules/sandbox-admin/sandbox-fx-journal-settings.controller';
import { CorporateActionSettingsModule } from 'src/modules/corporate-actions/corporate-action-settings';
import { SandboxAdminController } from 'src/modules/sandbox-admin/sandbox-admin.controller';
import { SandboxAdminGuard } from 'src/modules/sandbox-admin/sandbox-admin.guard';
import { SandboxTenantSettingsController } from 'src/modules/sandbox-admin/sandbox-tenant-settings.controller';
import { SandboxTenantSettingsService } from 'src/modules/sandbox-admin/sandbox-tenant-settings.service';
import { SandboxTenantsService } from 'src/modules/sandbox-admin/sandbox-tenants.service';
import { TenantEraser } from 'src/modules/sandbox-admin/tenant-eraser.service';
import { BrandingModule } from 'src/modules/statements/branding.module';
import { TradingSettingsModule } from 'src/modules/trading/trading-settings.module';
import { TransferSettingsModule } from 'src/modules/transfers/transfer-settings.module';

/** Operator routes of sandbox deployments (/v1/sandbox/*): tenants for QA runs and their terms. */
@Module({
  imports: [
    TradingSettingsModule,
    TransferSettingsModule,
    CashSweepSettingsModule,
    FxSettingsModule,
    JournalSettingsModule,
    CorporateActionSettingsModule,
    BrandingModule,
  ],
  controllers: [SandboxAdminController, SandboxTenantSettingsController, SandboxFxJournalSettingsController],
  providers: [SandboxAdminGuard, SandboxTenantsService, SandboxTenantSettingsService, TenantEraser],
})
export class SandboxAdminModule {}
