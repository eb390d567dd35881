import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { minorUnits } from 'src/core/money/currencies';
import type { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';
import { LedgerService } from 'src/modules/ledger/ledger.service';

/**
 * What an account still holds that another module keeps (open orders, positions, transfers in
 * flight), in words such as "2 open orders"; none: empty. Trading and Transfers register one.
 */
export interface CloseBlocker {
  outstanding(account: InvestmentAccountEntity, manager: EntityManager): Promise<string[]>;
}

/**
 * CLOSED is final and moves no money, so an account is closed only when it holds nothing: no cash,
 * pending deposit or hold in any currency (from the ledger), and nothing a registered module keeps.
 * Read inside the close's transaction, with the account row locked against new orders and transfers.
 */
@Injectable()
export class AccountClosing {
  private readonly blockers: CloseBlocker[] = [];

  constructor(private readonly ledger: LedgerService) {}

  register(blocker: CloseBlocker): void {
    this.blockers.push(blocker);
  }

  async outstanding(account: InvestmentAccountEntity, manager: EntityManager): Promise<string[]> {
    const scope = { tenantId: account.tenant_id, livemode: account.livemode };
    const balances = (await this.ledger.balancesOf(scope, [account.id], manager)).get(account.id) ?? [];
    const items: string[] = [];
    for (const b of balances) {
      const dp = minorUnits(b.currency);
      if (!b.cash.isZero()) {
        items.push(`${b.cash.toFixed(dp)} ${b.currency} cash`);
      }
      if (!b.pendingDeposits.isZero()) {
        items.push(`${b.pendingDeposits.toFixed(dp)} ${b.currency} of pending deposits`);
      }
    }
    for (const blocker of this.blockers) {
      items.push(...(await blocker.outstanding(account, manager)));
    }
    return items;
  }
}
