import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { JobRegistry } from 'src/core/scheduler/job-registry';
import type { DueJob } from 'src/core/scheduler/job-types';
import { PROCESS_JOB, SETTLE_JOB, TransferLifecycle } from 'src/modules/transfers/transfer-lifecycle.service';
import { TransfersRepository } from 'src/modules/transfers/transfers.repository';

/**
 * The lifecycle's clock-driven steps: `transfer.process` (pending → processing, 1 hour after
 * creation by default) and `transfer.settle` (processing → settled or failed, 1 business day
 * later). Each locks the transfer and does nothing when its step already happened.
 */
@Injectable()
export class TransferJobs implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly transfers: TransfersRepository,
    private readonly lifecycle: TransferLifecycle,
  ) {}

  onModuleInit(): void {
    this.registry.register(PROCESS_JOB, {
      run: (manager, job) =>
        this.step(manager, job, (t) => this.lifecycle.startProcessing(manager, t, job.now)),
    });
    this.registry.register(SETTLE_JOB, {
      run: (manager, job) =>
        this.step(manager, job, (t) => this.lifecycle.finishProcessing(manager, t, job.now)),
    });
  }

  private async step(
    manager: EntityManager,
    job: DueJob,
    apply: (
      transfer: NonNullable<Awaited<ReturnType<TransfersRepository['lockByTransactionId']>>>,
    ) => Promise<unknown>,
  ): Promise<void> {
    const transactionId = String(job.payload.transactionId);
    const transfer = await this.transfers.lockByTransactionId(manager, job, transactionId);
    if (transfer) {
      await apply(transfer);
    }
  }
}
