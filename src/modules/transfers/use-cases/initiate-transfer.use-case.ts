import { Injectable } from '@nestjs/common';
import type Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import type { WriteBatch } from 'src/core/database/write-batch';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import { AppConfig } from 'src/core/config/app-config.service';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { newId } from 'src/core/ids/ids';
import { JobScheduler } from 'src/core/scheduler/job-scheduler.service';
import {
  assertAccountActive,
  AccountsService,
  type AccountSummary,
} from 'src/modules/accounts/accounts.service';
import {
  FundingSourcesService,
  type UsableFundingSource,
} from 'src/modules/funding-sources/funding-sources.service';
import { LedgerService } from 'src/modules/ledger/ledger.service';
import { TransferEntity, TransferMethod, TransferType } from 'src/modules/transfers/entities/transfer.entity';
import { transferLedger } from 'src/modules/transfers/transfer-ledger';
import { PROCESS_JOB, TransferLifecycle } from 'src/modules/transfers/transfer-lifecycle.service';
import { TransferSettingsService } from 'src/modules/transfers/transfer-settings.service';
import { checkTransferAmount, transferFee } from 'src/modules/transfers/transfer-terms';
import { TransfersRepository } from 'src/modules/transfers/transfers.repository';
import { TransferCurrencyError } from 'src/modules/transfers/transfer-errors';

/** A deposit or withdrawal request, from either view; `params` name the fields as the route has them. */
export interface InitiateTransferCommand {
  principal: Principal;
  type: TransferType;
  /** Wallet routes address the account; envelope routes the investor. */
  target: { accountId: string } | { investorId: string };
  amount: string;
  currency?: string;
  fundingSourceId: string;
  method?: TransferMethod;
  description?: string;
  externalReferenceId?: string;
  metadata?: Record<string, string>;
  params: { currency: string; fundingSource: string };
}

/**
 * Initiating a transfer, one transaction: the account (404 outside the caller's scope), the
 * investor's bank account and the amount (400), the account's status (422 SVC-422-001), the hold
 * (a withdrawal above available cash: 422 SVC-422-002), the transfer row, `transfer.*.initiated`,
 * the processing job (test mode) and the stored idempotent response. The reads are one round trip
 * each; the writes one statement together.
 */
@Injectable()
export class InitiateTransfer {
  private readonly processingDelayMs: number;

  constructor(
    private readonly transactions: IdempotentTransaction,
    private readonly accounts: AccountsService,
    private readonly fundingSources: FundingSourcesService,
    private readonly settings: TransferSettingsService,
    private readonly clock: ClockService,
    private readonly ledger: LedgerService,
    private readonly lifecycle: TransferLifecycle,
    private readonly transfers: TransfersRepository,
    private readonly scheduler: JobScheduler,
    config: AppConfig,
  ) {
    this.processingDelayMs = config.get('TRANSFER_PROCESSING_DELAY_SECONDS') * 1000;
  }

  execute<T>(
    command: InitiateTransferCommand,
    idem: IdempotentRequest | undefined,
    render: (transfer: TransferEntity) => T,
  ): Promise<T> {
    const { principal } = command;
    return this.transactions.run(idem, async (manager, batch, reads) => {
      // Every read below goes through `manager`: a second pool connection per request would let
      // concurrent requests exhaust the pool and wait on each other. The account (held FOR SHARE)
      // and the bank account are read in one round trip, with the Idempotency-Key's check.
      const accountRead = this.accounts.shareForMoneyMovementIn(reads, principal, command.target);
      const sourceRead = this.fundingSources.usableIn(
        reads,
        principal,
        command.fundingSourceId,
        command.params.fundingSource,
      );
      await reads.run(manager);
      const account = accountRead();
      const source = sourceRead(account);
      if (command.currency !== undefined && command.currency !== source.currency) {
        throw new TransferCurrencyError(command.params.currency, source.currency, source.id);
      }
      const terms = await this.settings.terms(principal.tenantId, manager);
      const amount = checkTransferAmount(command.amount, source.currency, terms);
      const { fee, net } = transferFee(terms, command.type, amount, source.currency);
      assertAccountActive(account, 'accountId' in command.target ? 'account_id' : 'investor_id');

      const now = await this.clock.now(principal, manager);
      const transfer = newTransfer(command, { account, source, amount, fee, net }, now);
      await this.writeInto(manager, batch, transfer, now);
      return render(transfer);
    });
  }

  /**
   * The transfer's writes, in one statement with the stored response (IdempotentTransaction): a
   * withdrawal above available cash is refused then, rolling everything back.
   */
  private async writeInto(manager: EntityManager, batch: WriteBatch, transfer: TransferEntity, now: Date) {
    this.transfers.insertInto(batch, transfer);
    await this.ledger.holdInto(manager, batch, transferLedger(transfer).hold(now), {
      insufficientFundsParam: 'amount',
    });
    this.lifecycle.initiatedInto(batch, transfer);
    if (!transfer.livemode) {
      // Live transfers wait for the bank rail (docs/decisions.md, Transfers); test ones follow the clock.
      this.scheduler.scheduleInto(batch, {
        tenantId: transfer.tenant_id,
        livemode: false,
        kind: PROCESS_JOB,
        dueAt: new Date(now.getTime() + this.processingDelayMs),
        payload: { transactionId: transfer.transaction_id },
        dedupeKey: transfer.transaction_id,
      });
    }
  }
}

/** The new transfer's row: `pending`, in the bank account's currency, its amounts as checked. */
function newTransfer(
  command: InitiateTransferCommand,
  checked: {
    account: AccountSummary;
    source: UsableFundingSource;
    amount: Decimal;
    fee: Decimal;
    net: Decimal;
  },
  now: Date,
): TransferEntity {
  const { principal } = command;
  const { account, source } = checked;
  return {
    id: newId(command.type),
    transaction_id: newId('walletTransaction'),
    tenant_id: principal.tenantId,
    livemode: principal.livemode,
    investor_id: account.investor_id,
    account_id: account.id,
    type: command.type,
    status: 'pending',
    currency: source.currency,
    amount: checked.amount.toFixed(),
    fee: checked.fee.toFixed(),
    net_amount: checked.net.toFixed(),
    funding_type: 'fiat',
    funding_source_id: source.id,
    method: command.method ?? 'ach',
    description: command.description ?? null,
    external_reference_id: command.externalReferenceId ?? null,
    metadata: command.metadata ?? {},
    failure_reason: null,
    sandbox_outcome: principal.livemode ? null : source.sandboxOutcome,
    created_at: now,
    processing_at: null,
    settled_at: null,
    failed_at: null,
    canceled_at: null,
    updated_at: now,
  };
}
