import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { WriteBatch } from 'src/core/database/write-batch';
import { JobRegistry } from 'src/core/scheduler/job-registry';
import { JobScheduler } from 'src/core/scheduler/job-scheduler.service';
import type { DueJob, ScheduleInput } from 'src/core/scheduler/job-types';
import { OrderEngine } from 'src/modules/trading/engine/order-engine.service';
import { nextSession, phaseAt } from 'src/modules/trading/engine/sessions';
import type { OrderRow } from 'src/modules/trading/order-types';
import { OrdersRepository } from 'src/modules/trading/orders.repository';

export const SESSION_OPEN_JOB = 'trading.session_open';
export const SESSION_CLOSE_JOB = 'trading.session_close';

/**
 * The session events an open order waits for: the open when the market is not in its regular
 * session (or the order is opg); the close for day and cls orders. One job per market and instant.
 */
function sessionJobs(order: OrderRow, now: Date): ScheduleInput[] {
  const next = nextSession(order.market, now);
  if (!next) {
    return [];
  }
  const job = (kind: string, dueAt: Date): ScheduleInput => ({
    tenantId: order.tenant_id,
    livemode: order.livemode,
    kind,
    dueAt,
    payload: { market: order.market },
    dedupeKey: `${order.market}:${dueAt.toISOString()}`,
  });
  const jobs: ScheduleInput[] = [];
  if (phaseAt(order.market, now) !== 'regular' || order.time_in_force === 'opg') {
    jobs.push(job(SESSION_OPEN_JOB, next.open));
  }
  if (order.time_in_force === 'day' || order.time_in_force === 'cls') {
    jobs.push(job(SESSION_CLOSE_JOB, next.closeOfCurrent));
  }
  return jobs;
}

/**
 * Session events on the tenant's clock: jobs at a market's open (opg orders and everything that
 * waited) and close (cls orders, then day orders expire), scheduled when an order is accepted and
 * run by the engine, one run per market and instant.
 */
@Injectable()
export class SessionEvents implements OnModuleInit {
  constructor(
    private readonly engine: OrderEngine,
    private readonly orders: OrdersRepository,
    private readonly registry: JobRegistry,
    private readonly scheduler: JobScheduler,
  ) {}

  onModuleInit(): void {
    this.registry.register(SESSION_OPEN_JOB, { run: (m, job) => this.run(m, job, 'open') });
    this.registry.register(SESSION_CLOSE_JOB, { run: (m, job) => this.run(m, job, 'close') });
  }

  /**
   * After an order is accepted and still open: the session events it waits for (in its transaction).
   * The open when the market is not in its regular session; the close for day and cls orders.
   */
  async schedule(manager: EntityManager, order: OrderRow, now: Date): Promise<void> {
    for (const job of sessionJobs(order, now)) {
      await this.scheduler.ensure(manager, job);
    }
  }

  /** schedule() as statements of the placement's batch. */
  scheduleInto(batch: WriteBatch, order: OrderRow, now: Date): void {
    for (const job of sessionJobs(order, now)) {
      this.scheduler.scheduleInto(batch, job);
    }
  }

  /** A session event job: every asset of the market with open orders in the tenant, as one run. */
  private async run(manager: EntityManager, job: DueJob, event: 'open' | 'close'): Promise<void> {
    const scope = { tenantId: job.tenantId, livemode: job.livemode };
    const market = String(job.payload.market);
    for (const assetId of await this.orders.openAssetsOfMarket(manager, scope, market)) {
      await this.engine.evaluateAsset(manager, scope, assetId, job.now, event);
    }
  }
}
