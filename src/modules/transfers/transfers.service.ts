import { Injectable } from '@nestjs/common';
import type Decimal from 'decimal.js';
import { DataSource } from 'typeorm';
import { assertInvestorVisible } from 'src/core/auth/access.guard';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import { ServiceError } from 'src/core/errors/service-error';
import { ListEnvelope, toList } from 'src/core/http/envelope';
import type { CursorPageQuery } from 'src/core/http/pagination';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { isIdOf } from 'src/core/ids/ids';
import { minorUnits } from 'src/core/money/currencies';
import { Money } from 'src/core/money/money';
import { AccountsService } from 'src/modules/accounts/accounts.service';
import { LedgerService } from 'src/modules/ledger/ledger.service';
import type {
  DepositDto,
  WalletBalanceDto,
  WalletTransactionDto,
  WithdrawalDto,
} from 'src/modules/transfers/dto/wallet-transaction.dto';
import type { WalletTransactionsQuery } from 'src/modules/transfers/dto/wallet-queries';
import type { TransferEntity, TransferType } from 'src/modules/transfers/entities/transfer.entity';
import { TransferLifecycle } from 'src/modules/transfers/transfer-lifecycle.service';
import { transferView, walletTransaction } from 'src/modules/transfers/transfer-views';
import { TransfersRepository } from 'src/modules/transfers/transfers.repository';

/** Wallet reads (balances, transactions), envelope reads, and the actions on one transfer. */
@Injectable()
export class TransfersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: IdempotentTransaction,
    private readonly accounts: AccountsService,
    private readonly ledger: LedgerService,
    private readonly lifecycle: TransferLifecycle,
    private readonly transfers: TransfersRepository,
    private readonly clock: ClockService,
  ) {}

  /** One entry per currency, the account's primary currency first (present even when empty). */
  async balances(principal: Principal, accountId: string): Promise<WalletBalanceDto[]> {
    const account = await this.accounts.findAccountForPrincipal(principal, accountId);
    const balances = new Map((await this.ledger.balances(principal, account.id)).map((b) => [b.currency, b]));
    const currencies = [account.currency, ...[...balances.keys()].filter((c) => c !== account.currency)];
    return currencies.map((currency) => {
      const balance = balances.get(currency);
      const text = (value: Decimal | undefined) => (value ?? new Money(0)).toFixed(minorUnits(currency));
      return {
        currency,
        cash: text(balance?.cash),
        available: text(balance?.available),
        pending_deposits: text(balance?.pendingDeposits),
        withdrawal_holds: text(balance?.withdrawalHolds),
        order_holds: text(balance?.orderHolds),
      };
    });
  }

  async listTransactions(
    principal: Principal,
    accountId: string,
    query: WalletTransactionsQuery,
  ): Promise<WalletTransactionDto[]> {
    const account = await this.accounts.findAccountForPrincipal(principal, accountId);
    const rows = await this.transfers.listForAccount(principal, account.id, {
      type: query.type,
      status: query.status,
      createdGte: this.instant(query.created_gte, 'created_gte'),
      createdLt: this.instant(query.created_lt, 'created_lt'),
      limit: query.limit ?? 50,
      offset: query.offset ?? 0,
    });
    return rows.map(walletTransaction);
  }

  async getTransaction(
    principal: Principal,
    accountId: string,
    transactionId: string,
  ): Promise<WalletTransactionDto> {
    const account = await this.accounts.findAccountForPrincipal(principal, accountId);
    const row = isIdOf('walletTransaction', transactionId)
      ? await this.transfers.findByTransactionId(principal, account.id, transactionId)
      : null;
    if (!row) {
      throw ServiceError.notFound('transaction', transactionId);
    }
    return walletTransaction(row);
  }

  /** POST .../transactions/{transaction_id}/cancel: pending only. */
  cancel(
    principal: Principal,
    accountId: string,
    transactionId: string,
    idem: IdempotentRequest | undefined,
  ): Promise<WalletTransactionDto> {
    return this.transactions.run(idem, async (manager) => {
      const account = await this.accounts.findAccountForPrincipal(principal, accountId, manager);
      const transfer = await this.lockOwned(manager, principal, transactionId, account.id);
      return walletTransaction(
        await this.lifecycle.cancel(manager, transfer, await this.clock.now(principal, manager)),
      );
    });
  }

  /** Test helpers: settle or fail one transfer at once (test keys; the investor's own key too). */
  finishNow(
    principal: Principal,
    transactionId: string,
    outcome: { settle: true } | { settle: false; reason?: string },
    idem: IdempotentRequest | undefined,
  ): Promise<WalletTransactionDto> {
    return this.transactions.run(idem, async (manager) => {
      const transfer = await this.lockOwned(manager, principal, transactionId);
      const now = await this.clock.now(principal, manager);
      const finished = outcome.settle
        ? await this.lifecycle.forceSettle(manager, transfer, now)
        : await this.lifecycle.forceFail(manager, transfer, now, outcome.reason ?? 'failed_by_test_helper');
      return walletTransaction(finished);
    });
  }

  async getView(
    principal: Principal,
    investorId: string,
    type: TransferType,
    id: string,
  ): Promise<DepositDto | WithdrawalDto> {
    await this.accounts.findInvestorAccount(principal, investorId);
    const row = isIdOf(type, id) ? await this.transfers.findView(principal, investorId, type, id) : null;
    if (!row) {
      throw ServiceError.notFound(type, id);
    }
    return transferView(row);
  }

  async listViews(
    principal: Principal,
    investorId: string,
    type: TransferType,
    query: CursorPageQuery,
    url: string,
  ): Promise<ListEnvelope<DepositDto | WithdrawalDto>> {
    const account = await this.accounts.findInvestorAccount(principal, investorId);
    const page = await this.transfers.pageViews(principal, account.id, type, query);
    return toList(url, page.data.map(transferView), page.hasMore);
  }

  private async lockOwned(
    manager: Parameters<TransferLifecycle['cancel']>[0],
    principal: Principal,
    transactionId: string,
    accountId?: string,
  ): Promise<TransferEntity> {
    const transfer = isIdOf('walletTransaction', transactionId)
      ? await this.transfers.lockByTransactionId(manager, principal, transactionId)
      : null;
    const visible =
      transfer &&
      (accountId === undefined || transfer.account_id === accountId) &&
      this.visibleTo(principal, transfer);
    if (!transfer || !visible) {
      throw ServiceError.notFound('transaction', transactionId);
    }
    return transfer;
  }

  private visibleTo(principal: Principal, transfer: TransferEntity): boolean {
    if (transfer.investor_id === null) {
      // The firm account's transfers: tenant-level keys only.
      return principal.investorId === null;
    }
    try {
      assertInvestorVisible(principal, transfer.investor_id);
      return true;
    } catch {
      return false;
    }
  }

  private instant(value: string | undefined, param: string): Date | undefined {
    if (value === undefined) {
      return undefined;
    }
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) {
      throw ServiceError.invalid(param, `${param} is not a valid date-time.`);
    }
    return date;
  }
}
