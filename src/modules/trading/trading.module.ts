import { Module, OnModuleInit } from '@nestjs/common';
import { AccountClosing } from 'src/modules/accounts/account-closing';
import { AccountEquity } from 'src/modules/accounts/account-equity';
import { AccountsModule } from 'src/modules/accounts/accounts.module';
import { AccountSuspension } from 'src/modules/accounts/account-suspension';
import { FirmOrdersController } from 'src/modules/trading/firm-orders.controller';
import { InvestorOrdersController } from 'src/modules/trading/investor-orders.controller';
import { TradingAccountsController } from 'src/modules/trading/trading-accounts.controller';
import { TradingEngineModule } from 'src/modules/trading/trading-engine.module';
import { PositionValuation } from 'src/modules/trading/position-valuation.service';
import { TradingService } from 'src/modules/trading/trading.service';
import { PlaceOrder } from 'src/modules/trading/use-cases/place-order.use-case';

/** Orders (both views), positions, executions; the engine comes from TradingEngineModule. */
@Module({
  imports: [TradingEngineModule, AccountsModule],
  controllers: [InvestorOrdersController, TradingAccountsController, FirmOrdersController],
  providers: [PlaceOrder, TradingService, PositionValuation],
  exports: [TradingService],
})
export class TradingModule implements OnModuleInit {
  constructor(
    private readonly equity: AccountEquity,
    private readonly closing: AccountClosing,
    private readonly suspension: AccountSuspension,
    private readonly trading: TradingService,
    private readonly valuation: PositionValuation,
  ) {}

  /**
   * last_equity includes positions at the last close, in the account's primary currency (no FX);
   * open orders and positions keep an account from closing; a suspension cancels open orders.
   */
  onModuleInit(): void {
    this.suspension.register((manager, account) =>
      this.trading.cancelOpenOrders(
        { tenantId: account.tenant_id, livemode: account.livemode },
        account.id,
        'account suspended',
        manager,
      ),
    );
    this.closing.register({
      outstanding: (account, manager) =>
        this.trading.holdings(
          { tenantId: account.tenant_id, livemode: account.livemode },
          account.id,
          manager,
        ),
    });
    this.equity.register(this.valuation);
  }
}
