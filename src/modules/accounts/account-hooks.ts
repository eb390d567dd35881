import type { EntityManager } from 'typeorm';
import type { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';

/** Work another module does at one step of an account's life, inside that step's transaction. */
export type AccountHook = (manager: EntityManager, account: InvestmentAccountEntity) => Promise<void>;

/**
 * The hooks of one step (opening, suspension), registered at start by the modules that need them
 * and run in registration order; a hook that throws rolls the step back.
 */
export abstract class AccountHooks {
  private readonly hooks: AccountHook[] = [];

  register(hook: AccountHook): void {
    this.hooks.push(hook);
  }

  async run(manager: EntityManager, account: InvestmentAccountEntity): Promise<void> {
    for (const hook of this.hooks) {
      await hook(manager, account);
    }
  }
}
