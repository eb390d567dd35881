import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { AppConfig } from 'src/core/config/app-config.service';
import { ServiceError } from 'src/core/errors/service-error';
import { Money } from 'src/core/money/money';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import type { FxRateDto } from 'src/modules/fx/dto/fx.dto';
import { FxCurrency, isFxCurrency, roundRate } from 'src/modules/fx/fx-math';
import { FxRateWalk } from 'src/modules/fx/fx-rate-walk';
import { FxRepository } from 'src/modules/fx/fx.repository';
import type { LedgerScope } from 'src/modules/ledger/ledger-account-kinds';

export interface FxPair {
  from: FxCurrency;
  to: FxCurrency;
}

/**
 * Mid rates: the test helper's rate for the tenant's test mode when one is set, else the seeded
 * walk at the clock's instant.
 */
@Injectable()
export class FxRatesService {
  private readonly walk: FxRateWalk;

  constructor(
    private readonly repository: FxRepository,
    private readonly transactions: IdempotentTransaction,
    config: AppConfig,
  ) {
    this.walk = new FxRateWalk(config.get('PRICE_SEED'));
  }

  async mid(scope: LedgerScope, pair: FxPair, at: Date, manager?: EntityManager): Promise<Decimal> {
    if (!scope.livemode) {
      const override = await this.repository.override(scope.tenantId, pair.from, pair.to, manager);
      if (override !== null) {
        return new Money(override);
      }
    }
    return this.walk.mid(pair.from, pair.to, at);
  }

  /**
   * POST /test_helpers/fx-rates: sets a pair (and its reverse to the inverse, 8 decimals half-even)
   * until set again; `rate: null` goes back to the simulated walk for both.
   */
  set(
    principal: Principal,
    pair: FxPair,
    rate: string | null,
    idem: IdempotentRequest | undefined,
  ): Promise<FxRateDto> {
    return this.transactions.run(idem, async (manager) => {
      const answer = {
        object: 'fx_rate' as const,
        livemode: false,
        from_currency: pair.from,
        to_currency: pair.to,
      };
      if (rate === null) {
        await this.repository.clearOverride(manager, principal.tenantId, pair.from, pair.to);
        return { ...answer, rate: null };
      }
      const value = new Money(rate);
      const inverse = roundRate(new Money(1).div(value));
      if (value.lte(0) || inverse.lte(0)) {
        throw ServiceError.invalid('rate', 'rate must be above zero and its inverse at least 0.00000001.');
      }
      await this.repository.setOverride(
        manager,
        principal.tenantId,
        [pair.from, pair.to, value.toFixed()],
        [pair.to, pair.from, inverse.toFixed()],
      );
      return { ...answer, rate: value.toFixed() };
    });
  }
}

/** A pair from request fields: each a supported currency (400 naming it), and two different ones. */
export function fxPair(
  from: string | undefined,
  to: string | undefined,
  params = { from: 'from_currency', to: 'to_currency' },
): FxPair {
  if (from === undefined) {
    throw ServiceError.missing(params.from);
  }
  if (to === undefined) {
    throw ServiceError.missing(params.to);
  }
  for (const [value, param] of [
    [from, params.from],
    [to, params.to],
  ] as const) {
    if (!isFxCurrency(value)) {
      throw ServiceError.invalid(
        param,
        `${param} must be one of USD, NGN, KES; '${value}' is not converted.`,
      );
    }
  }
  if (from === to) {
    throw ServiceError.invalid(params.to, 'to_currency must differ from from_currency.');
  }
  return { from: from as FxCurrency, to: to as FxCurrency };
}
