import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';

/**
 * Work another module does when an account opens, inside the opening transaction (cash sweep
 * enrolls the account in its default tier). Registered at start with `AccountOpenings.register`;
 * a hook that throws rolls the opening back.
 */
export interface AccountOpeningHook {
  opened(manager: EntityManager, account: InvestmentAccountEntity): Promise<void>;
}

@Injectable()
export class AccountOpenings {
  private readonly hooks: AccountOpeningHook[] = [];

  register(hook: AccountOpeningHook): void {
    this.hooks.push(hook);
  }

  async run(manager: EntityManager, account: InvestmentAccountEntity): Promise<void> {
    for (const hook of this.hooks) {
      await hook.opened(manager, account);
    }
  }
}
