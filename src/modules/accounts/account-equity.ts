import { Injectable } from '@nestjs/common';
import type Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import { minorUnits } from 'src/core/money/currencies';
import { Money } from 'src/core/money/money';
import type { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';
import { LedgerService } from 'src/modules/ledger/ledger.service';

/**
 * A part of an account's equity beyond its cash, valued in the account's primary currency.
 * Trading registers one for positions at the last close (`AccountEquity.register` at start).
 */
export interface EquityContributor {
  /** Value per account id; an account left out counts zero. */
  valueOf(accounts: InvestmentAccountEntity[], manager?: EntityManager): Promise<Map<string, Decimal>>;
}

/**
 * The account record's `last_equity`: settled cash in the account's primary currency, from the
 * ledger (no FX: cash in other currencies is not counted), plus every registered contributor.
 */
@Injectable()
export class AccountEquity {
  private readonly contributors: EquityContributor[] = [];

  constructor(private readonly ledger: LedgerService) {}

  register(contributor: EquityContributor): void {
    this.contributors.push(contributor);
  }

  /** `last_equity` text per account id, in the currency's minor units. */
  async lastEquity(
    accounts: InvestmentAccountEntity[],
    manager?: EntityManager,
  ): Promise<Map<string, string>> {
    const equity = new Map<string, Decimal>(accounts.map((a) => [a.id, new Money(0)]));
    for (const [scope, group] of groupByScope(accounts)) {
      const balances = await this.ledger.balancesOf(
        scope,
        group.map((a) => a.id),
        manager,
      );
      for (const account of group) {
        const cash = balances.get(account.id)?.find((b) => b.currency === account.currency)?.cash;
        if (cash) {
          equity.set(account.id, equity.get(account.id)!.plus(cash));
        }
      }
    }
    for (const contributor of this.contributors) {
      for (const [id, value] of await contributor.valueOf(accounts, manager)) {
        equity.set(id, (equity.get(id) ?? new Money(0)).plus(value));
      }
    }
    return new Map(accounts.map((a) => [a.id, equity.get(a.id)!.toFixed(minorUnits(a.currency))]));
  }
}

function groupByScope(
  accounts: InvestmentAccountEntity[],
): Map<{ tenantId: string; livemode: boolean }, InvestmentAccountEntity[]> {
  const groups = new Map<
    string,
    { scope: { tenantId: string; livemode: boolean }; accounts: InvestmentAccountEntity[] }
  >();
  for (const account of accounts) {
    const key = `${account.tenant_id}:${account.livemode}`;
    const group = groups.get(key) ?? {
      scope: { tenantId: account.tenant_id, livemode: account.livemode },
      accounts: [],
    };
    group.accounts.push(account);
    groups.set(key, group);
  }
  return new Map([...groups.values()].map((g) => [g.scope, g.accounts]));
}
