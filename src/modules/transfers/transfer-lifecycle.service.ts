import { ActivitiesService } from 'src/modules/activities/activities.service';
import { transferActivities } from 'src/modules/transfers/transfer-activities';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { WriteBatch } from 'src/core/database/write-batch';
import { AppConfig } from 'src/core/config/app-config.service';
import { EventsService } from 'src/core/events/events.service';
import { Money } from 'src/core/money/money';
import { JobScheduler } from 'src/core/scheduler/job-scheduler.service';
import type { EntryInput } from 'src/modules/ledger/journal-rules';
import { LedgerService } from 'src/modules/ledger/ledger.service';
import type { TransferEntity, TransferStatus } from 'src/modules/transfers/entities/transfer.entity';
import { afterBusinessDays } from 'src/modules/transfers/settlement-date';
import { transferLedger } from 'src/modules/transfers/transfer-ledger';
import { transferEventData } from 'src/modules/transfers/transfer-views';
import { TransfersRepository } from 'src/modules/transfers/transfers.repository';
import { TransferStatusError } from 'src/modules/transfers/transfer-errors';

/** Job kinds of the lifecycle (payload `{transactionId}`, dedupe key = the transaction id). */
export const PROCESS_JOB = 'transfer.process';
export const SETTLE_JOB = 'transfer.settle';

/** Failure reason of the test bank account number that fails (000111111116). */
export const SANDBOX_FAILURE_REASON = 'bank_account_closed';

/**
 * Every state change of a transfer after it was initiated, each on a row locked in the caller's
 * transaction, with its ledger entries, its event and its follow-up job: pending → processing →
 * settled or failed; pending → canceled. A change whose starting state is gone does nothing,
 * so a job run twice (or racing a test helper or a cancel) changes and posts nothing twice.
 */
@Injectable()
export class TransferLifecycle {
  private readonly settlementDays: number;

  constructor(
    private readonly transfers: TransfersRepository,
    private readonly ledger: LedgerService,
    private readonly events: EventsService,
    private readonly scheduler: JobScheduler,
    private readonly activities: ActivitiesService,
    config: AppConfig,
  ) {
    this.settlementDays = config.get('TRANSFER_SETTLEMENT_BUSINESS_DAYS');
  }

  /** Job: the cancel window closed; the transfer goes to the bank. */
  async startProcessing(manager: EntityManager, transfer: TransferEntity, now: Date): Promise<void> {
    if (transfer.status !== 'pending') {
      return;
    }
    await this.transfers.update(manager, transfer, { status: 'processing', processing_at: now }, now);
    await this.scheduler.schedule(manager, {
      tenantId: transfer.tenant_id,
      livemode: transfer.livemode,
      kind: SETTLE_JOB,
      dueAt: afterBusinessDays(now, this.settlementDays, transfer.currency),
      payload: { transactionId: transfer.transaction_id },
      dedupeKey: transfer.transaction_id,
    });
  }

  /** Job: the bank answered. In test mode the bank account number decides how. */
  async finishProcessing(manager: EntityManager, transfer: TransferEntity, now: Date): Promise<void> {
    if (transfer.status !== 'processing') {
      return;
    }
    if (transfer.sandbox_outcome === 'fail') {
      await this.fail(manager, transfer, now, SANDBOX_FAILURE_REASON);
    } else {
      await this.settle(manager, transfer, now);
    }
  }

  /** Partner's cancel: only while pending (409 otherwise); the held or pending amount is released. */
  async cancel(manager: EntityManager, transfer: TransferEntity, now: Date): Promise<TransferEntity> {
    this.requireStatus(transfer, ['pending'], 'canceled');
    await this.ledger.voidHold(manager, {
      ...this.scope(transfer),
      holdKey: transfer.transaction_id,
      at: now,
    });
    const canceled = await this.transfers.update(
      manager,
      transfer,
      { status: 'canceled', canceled_at: now },
      now,
    );
    await this.dropJobs(manager, transfer);
    await this.emit(manager, canceled, 'canceled');
    return canceled;
  }

  /** Test helper: settle a pending or processing transfer now. */
  async forceSettle(manager: EntityManager, transfer: TransferEntity, now: Date): Promise<TransferEntity> {
    this.requireStatus(transfer, ['pending', 'processing'], 'settled');
    await this.dropJobs(manager, transfer);
    return this.settle(manager, transfer, now);
  }

  /** Test helper: fail a pending or processing transfer now. */
  async forceFail(
    manager: EntityManager,
    transfer: TransferEntity,
    now: Date,
    reason: string,
  ): Promise<TransferEntity> {
    this.requireStatus(transfer, ['pending', 'processing'], 'failed');
    await this.dropJobs(manager, transfer);
    return this.fail(manager, transfer, now, reason);
  }

  /** Posts the hold: a deposit credits the investor's cash, a withdrawal debits it (fees aside). */
  private async settle(manager: EntityManager, transfer: TransferEntity, now: Date): Promise<TransferEntity> {
    const entries: EntryInput[] = transferLedger(transfer).settlementEntries();
    await this.ledger.postHold(manager, {
      ...this.scope(transfer),
      holdKey: transfer.transaction_id,
      amount: new Money(transfer.amount),
      journal: {
        journalKey: `${transfer.transaction_id}:settled`,
        kind: `${transfer.type}.settled`,
        effectiveAt: now,
        reference: transfer.transaction_id,
        description: `${transfer.type} ${transfer.transaction_id} settled`,
        entries,
      },
    });
    await this.activities.record(manager, this.scope(transfer), transferActivities(transfer, now));
    const settled = await this.transfers.update(
      manager,
      transfer,
      { status: 'settled', settled_at: now },
      now,
    );
    await this.emit(manager, settled, 'completed');
    return settled;
  }

  private async fail(
    manager: EntityManager,
    transfer: TransferEntity,
    now: Date,
    reason: string,
  ): Promise<TransferEntity> {
    await this.ledger.voidHold(manager, {
      ...this.scope(transfer),
      holdKey: transfer.transaction_id,
      at: now,
    });
    const failed = await this.transfers.update(
      manager,
      transfer,
      {
        status: 'failed',
        failed_at: now,
        failure_reason: reason,
      },
      now,
    );
    await this.emit(manager, failed, 'failed');
    return failed;
  }

  private requireStatus(transfer: TransferEntity, allowed: TransferStatus[], target: TransferStatus): void {
    if (!allowed.includes(transfer.status)) {
      throw new TransferStatusError(transfer.transaction_id, transfer.status, allowed, target);
    }
  }

  private async dropJobs(manager: EntityManager, transfer: TransferEntity): Promise<void> {
    for (const kind of [PROCESS_JOB, SETTLE_JOB]) {
      await this.scheduler.cancel(manager, {
        ...this.scope(transfer),
        kind,
        dedupeKey: transfer.transaction_id,
      });
    }
  }

  private emit(
    manager: EntityManager,
    transfer: TransferEntity,
    step: 'initiated' | 'completed' | 'failed' | 'canceled',
  ) {
    return this.events.emit(manager, {
      ...this.scope(transfer),
      event: `transfer.${transfer.type}.${step}`,
      data: transferEventData(transfer),
    });
  }

  /** Adds the `initiated` event of a new transfer to the batch creating it. */
  initiatedInto(batch: WriteBatch, transfer: TransferEntity): void {
    this.events.emitInto(batch, {
      ...this.scope(transfer),
      event: `transfer.${transfer.type}.initiated`,
      data: transferEventData(transfer),
    });
  }

  private scope(transfer: TransferEntity): { tenantId: string; livemode: boolean } {
    return { tenantId: transfer.tenant_id, livemode: transfer.livemode };
  }
}
