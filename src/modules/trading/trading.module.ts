import { Module, OnModuleInit } from '@nestjs/common';
import Decimal from 'decimal.js';
import { AccountClosing } from 'src/modules/accounts/account-closing';
import { AccountEquity } from 'src/modules/accounts/account-equity';
import { AccountsModule } from 'src/modules/accounts/accounts.module';
import { AccountSuspension } from 'src/modules/accounts/account-suspension';
import { InvestorOrdersController } from 'src/modules/trading/investor-orders.controller';
import { TradingAccountsController } from 'src/modules/trading/trading-accounts.controller';
import { TradingEngineModule } from 'src/modules/trading/trading-engine.module';
import { TradingService } from 'src/modules/trading/trading.service';
import { PlaceOrder } from 'src/modules/trading/use-cases/place-order.use-case';

/** Orders (both views), positions, executions; the engine comes from TradingEngineModule. */
@Module({
  imports: [TradingEngineModule, AccountsModule],
  controllers: [InvestorOrdersController, TradingAccountsController],
  providers: [PlaceOrder, TradingService],
  exports: [TradingService],
})
export class TradingModule implements OnModuleInit {
  constructor(
    private readonly equity: AccountEquity,
    private readonly closing: AccountClosing,
    private readonly suspension: AccountSuspension,
    private readonly trading: TradingService,
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
    this.equity.register({
      valueOf: async (accounts, manager) => {
        const result = new Map<string, Decimal>();
        const byScope = new Map<string, typeof accounts>();
        for (const a of accounts) {
          const key = `${a.tenant_id}|${a.livemode}`;
          byScope.set(key, [...(byScope.get(key) ?? []), a]);
        }
        for (const group of byScope.values()) {
          const scope = { tenantId: group[0].tenant_id, livemode: group[0].livemode };
          const values = await this.trading.positionValues(
            scope,
            group.map((a) => a.id),
            manager,
          );
          for (const a of group) {
            const own = (values.get(a.id) ?? []).filter((v) => v.currency === a.currency);
            result.set(
              a.id,
              own.reduce((sum, v) => sum.plus(v.value), new Decimal(0)),
            );
          }
        }
        return result;
      },
    });
  }
}
