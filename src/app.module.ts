import { Module } from '@nestjs/common';
import { CoreModule } from 'src/core/core.module';
import { TestClockModule } from 'src/core/clock/test-clock.module';
import { QueueModule } from 'src/core/queue/queue.module';
import { SchedulerModule } from 'src/core/scheduler/scheduler.module';
import { EventsModule } from 'src/modules/events/events.module';
import { WebhooksModule } from 'src/modules/webhooks/webhooks.module';
import { AccountsModule } from 'src/modules/accounts/accounts.module';
import { ApiKeysModule } from 'src/modules/api-keys/api-keys.module';
import { ComplianceModule } from 'src/modules/compliance/compliance.module';
import { DisclosuresModule } from 'src/modules/disclosures/disclosures.module';
import { DocumentsModule } from 'src/modules/documents/documents.module';
import { FundingSourcesModule } from 'src/modules/funding-sources/funding-sources.module';
import { InvestorsModule } from 'src/modules/investors/investors.module';
import { LedgerModule } from 'src/modules/ledger/ledger.module';
import { AssetsModule } from 'src/modules/assets/assets.module';
import { MarketDataModule } from 'src/modules/market-data/market-data.module';
import { MarketsModule } from 'src/modules/markets/markets.module';
import { TradingModule } from 'src/modules/trading/trading.module';
import { SandboxAdminModule } from 'src/modules/sandbox-admin/sandbox-admin.module';
import { WebhookSinksModule } from 'src/modules/webhook-sinks/webhook-sinks.module';
import { TransfersModule } from 'src/modules/transfers/transfers.module';
import { WealthModule } from 'src/modules/wealth/wealth.module';
import { CashSweepModule } from 'src/modules/cash-sweep/cash-sweep.module';
import { CorporateActionsModule } from 'src/modules/corporate-actions/corporate-actions.module';
import { CashManagementModule } from 'src/modules/cash-management/cash-management.module';
import { ActivitiesModule } from 'src/modules/activities/activities.module';
import { StatementsCoreModule } from 'src/modules/statements/statements-core.module';
import { RequestLogsModule } from 'src/modules/request-logs/request-logs.module';
import { FxModule } from 'src/modules/fx/fx.module';
import { JournalsModule } from 'src/modules/journals/journals.module';

@Module({
  imports: [
    CoreModule,
    QueueModule.forRoot(),
    SchedulerModule,
    TestClockModule,
    WebhooksModule,
    EventsModule,
    InvestorsModule,
    AccountsModule,
    LedgerModule,
    FundingSourcesModule,
    TransfersModule,
    TradingModule,
    ComplianceModule,
    DocumentsModule,
    DisclosuresModule,
    ApiKeysModule,
    AssetsModule,
    MarketsModule,
    MarketDataModule,
    WealthModule,
    CashSweepModule,
    CorporateActionsModule,
    CashManagementModule,
    ActivitiesModule,
    StatementsCoreModule,
    RequestLogsModule,
    FxModule,
    JournalsModule,
    SandboxAdminModule,
    WebhookSinksModule,
  ],
})
export class AppModule {}
