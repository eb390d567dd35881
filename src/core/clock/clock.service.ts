import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ClockScope } from 'src/core/clock/clock-scope';
import { FrozenClocks } from 'src/core/clock/frozen-clocks';
import { TestClockRepository } from 'src/core/clock/test-clock.repository';

/**
 * The one source of "now" for business time. Live mode: real time. Test mode: the tenant's test
 * clock (real time unless frozen). What reads it and what stays on real time is listed in
 * docs/decisions.md (Test clock).
 */
@Injectable()
export class ClockService {
  constructor(
    private readonly frozen: FrozenClocks,
    private readonly repository: TestClockRepository,
  ) {}

  /**
   * Now for a principal or `{tenantId, livemode}`. Live mode and cached test clocks: no query.
   * Inside a transaction pass its manager: the rare fallback read (clock notifications down) then
   * uses the transaction's connection instead of waiting for another one from the pool.
   */
  async now(scope: ClockScope, manager?: EntityManager): Promise<Date> {
    if (scope.livemode) {
      return new Date();
    }
    const frozen = await this.frozen.frozenTime(scope.tenantId, manager);
    return frozen ? new Date(frozen.getTime()) : new Date();
  }

  /**
   * Now as PostgreSQL has it inside `manager`'s transaction, for the few reads that must agree
   * with rows locked in that transaction (the scheduler). Live mode: real time, no query.
   */
  async nowIn(manager: EntityManager, scope: ClockScope): Promise<Date> {
    if (scope.livemode) {
      return new Date();
    }
    const state = await this.repository.find(scope.tenantId, manager);
    return state?.frozenTime ? new Date(state.frozenTime.getTime()) : new Date();
  }
}
