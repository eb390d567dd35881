import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';

/** Work another module does when an account is suspended, in the suspension's transaction. */
export interface SuspensionHandler {
  suspended(account: InvestmentAccountEntity, manager: EntityManager): Promise<void>;
}

/**
 * Only ACTIVE accounts trade, so a suspension ends what would still trade on its own: Trading
 * registers a handler that cancels the account's open orders (their holds released, `order.canceled`
 * sent). Runs with the account row locked, so no order is placed meanwhile.
 */
@Injectable()
export class AccountSuspension {
  private readonly handlers: SuspensionHandler[] = [];

  register(handler: SuspensionHandler): void {
    this.handlers.push(handler);
  }

  async suspended(account: InvestmentAccountEntity, manager: EntityManager): Promise<void> {
    for (const handler of this.handlers) {
      await handler.suspended(account, manager);
    }
  }
}
