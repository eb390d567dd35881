import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import type { ClockState } from 'src/core/clock/clock-scope';
import { MAX_MOVE_SECONDS, MoveTestClockDto, TestClockDto } from 'src/core/clock/dto/test-clock.dto';
import { FrozenClocks } from 'src/core/clock/frozen-clocks';
import { TestClockRepository } from 'src/core/clock/test-clock.repository';
import { ServiceError } from 'src/core/errors/service-error';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { JobRunner } from 'src/core/scheduler/job-runner.service';

/** The latest moment a clock following real time may be frozen at. */
const LATEST_FREEZE = new Date('2100-01-01T00:00:00Z');

function render(frozenTime: Date | null): TestClockDto {
  return {
    object: 'test_clock',
    frozen_time: frozenTime?.toISOString() ?? null,
    now: (frozenTime ?? new Date()).toISOString(),
    livemode: false,
  };
}

/**
 * The test clock helper: read it, freeze it, move it forward (running every job of the tenant that
 * falls due on the way, before answering), or reset it to real time. One move per tenant at a time.
 */
@Injectable()
export class TestClockService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clocks: TestClockRepository,
    private readonly frozen: FrozenClocks,
    private readonly runner: JobRunner,
    private readonly transactions: IdempotentTransaction,
  ) {}

  async get(principal: Principal): Promise<TestClockDto> {
    return render((await this.clocks.find(principal.tenantId))?.frozenTime ?? null);
  }

  async move(
    principal: Principal,
    body: MoveTestClockDto,
    idem: IdempotentRequest | undefined,
  ): Promise<TestClockDto> {
    const requested = this.requestedMove(body);
    return this.exclusively(principal.tenantId, async () => {
      const frozenTime = (await this.clocks.find(principal.tenantId))?.frozenTime ?? null;
      const shown = frozenTime ?? new Date();
      let target: Date | null = null;
      if (requested.kind !== 'reset') {
        target =
          requested.kind === 'freeze' ? requested.at : new Date(shown.getTime() + requested.seconds * 1000);
        if (target < shown) {
          throw ServiceError.invalid(
            'frozen_time',
            `The clock only moves forward: frozen_time must not be earlier than ${shown.toISOString()}, the time it shows.`,
          );
        }
        this.refuseTooFar(requested, target, shown, frozenTime === null);
        await this.runner.runDueUpTo({ tenantId: principal.tenantId, livemode: false }, shown, target);
      }
      let saved: ClockState | undefined;
      const response = await this.transactions.run(idem, async (manager) => {
        saved = await this.clocks.set(manager, principal.tenantId, target);
        return render(saved.frozenTime);
      });
      if (saved) {
        this.frozen.apply(saved);
      }
      return response;
    });
  }

  /**
   * A frozen clock, and any advance, moves at most 366 days at a time (a year of daily jobs is the
   * most one request runs). A clock following real time may be frozen at any later date before
   * 2100, so that a walkthrough naming its own fixed date years ahead works on whatever day it is
   * followed; the job runner's per-move job limit still bounds the work such a jump does.
   */
  private refuseTooFar(
    requested: { kind: 'freeze' | 'advance'; param: 'frozen_time' | 'advance_seconds' },
    target: Date,
    shown: Date,
    followsRealTime: boolean,
  ): void {
    if (requested.kind === 'freeze' && followsRealTime) {
      if (target >= LATEST_FREEZE) {
        throw ServiceError.invalid('frozen_time', 'frozen_time must be earlier than 2100-01-01T00:00:00Z.');
      }
      return;
    }
    if (target.getTime() - shown.getTime() > MAX_MOVE_SECONDS * 1000) {
      throw ServiceError.invalid(
        requested.param,
        'One move may cover at most 366 days; move the clock in steps.',
      );
    }
  }

  private requestedMove(
    body: MoveTestClockDto,
  ):
    | { kind: 'reset' }
    | { kind: 'freeze'; at: Date; param: 'frozen_time' }
    | { kind: 'advance'; seconds: number; param: 'advance_seconds' } {
    const hasFreeze = body.frozen_time !== undefined;
    if (hasFreeze && body.advance_seconds !== undefined) {
      throw ServiceError.invalid('advance_seconds', 'Send either frozen_time or advance_seconds, not both.');
    }
    if (body.advance_seconds !== undefined) {
      return { kind: 'advance', seconds: body.advance_seconds, param: 'advance_seconds' };
    }
    if (!hasFreeze) {
      throw ServiceError.missing(
        'frozen_time',
        'Send frozen_time (an ISO 8601 date-time, or null to reset to real time) or advance_seconds.',
      );
    }
    if (body.frozen_time === null || body.frozen_time === undefined) {
      return { kind: 'reset' };
    }
    const at = new Date(body.frozen_time);
    if (Number.isNaN(at.getTime())) {
      throw ServiceError.invalid('frozen_time', 'frozen_time is not a valid date-time.');
    }
    return { kind: 'freeze', at, param: 'frozen_time' };
  }

  /** Serialises moves of one tenant's clock across processes (a session advisory lock). */
  private async exclusively<T>(tenantId: string, work: () => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    const lock = [`test_clock:${tenantId}`];
    try {
      await runner.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', lock);
      try {
        return await work();
      } finally {
        await runner.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', lock);
      }
    } finally {
      await runner.release();
    }
  }
}
