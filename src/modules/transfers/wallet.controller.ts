import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import {
  Idempotency,
  IdempotencyInTransaction,
  IdempotentRequest,
} from 'src/core/idempotency/idempotent-request';
import { WalletTransferRequestDto } from 'src/modules/transfers/dto/transfer-request.dto';
import { WalletTransactionsQuery } from 'src/modules/transfers/dto/wallet-queries';
import { WalletBalanceDto, WalletTransactionDto } from 'src/modules/transfers/dto/wallet-transaction.dto';
import { walletCommand } from 'src/modules/transfers/transfer-commands';
import { walletTransaction } from 'src/modules/transfers/transfer-views';
import { TransfersService } from 'src/modules/transfers/transfers.service';
import { InitiateTransfer } from 'src/modules/transfers/use-cases/initiate-transfer.use-case';
import { ReadsMayLag } from 'src/core/database/replicas/read-context';

const ACCOUNT_ID = ApiParam({
  name: 'account_id',
  format: 'uuid',
  example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b',
});
const TRANSACTION_ID = ApiParam({ name: 'transaction_id', example: 'txn_8Wm2cQx4Lr7Tb1Nv5Zk9Pa' });
const LIFECYCLE =
  'Lifecycle: pending → processing (1 hour later) → settled or failed (1 business day later), on the tenant\u2019s ' +
  'test clock in test mode; pending → canceled on request. In the sandbox the bank account number decides: ' +
  '`000111111116` fails (`bank_account_closed`), any other settles. Live transfers wait in pending for the bank.';
const INITIATE_ERRORS = ['SVC-400-001', 'SVC-400-002', 'SVC-404-001', 'SVC-422-001'] as const;

@ApiTags('Wallet')
@Controller('wallet/accounts/:account_id')
@ACCOUNT_ID
export class WalletController {
  constructor(
    private readonly initiate: InitiateTransfer,
    private readonly transfers: TransfersService,
  ) {}

  @Post('funding')
  @IdempotencyInTransaction()
  @ApiOperation({
    operationId: 'fundAccount',
    summary: 'Deposit into an account',
    description:
      'Starts a deposit from the investor\u2019s bank account (`funding_details.bank_account_id`, a funding source) and ' +
      'answers the wallet transaction in status `pending` with `settled_at`, `failed_at` and `failure_reason` null. ' +
      'Emits `transfer.deposit.initiated`. The amount shows in `pending_deposits` until it settles and credits ' +
      `cash (minus the tenant\u2019s fee). ${LIFECYCLE} The account must be ACTIVE (422 SVC-422-001).`,
  })
  @ApiCreatedResponse({ type: WalletTransactionDto })
  @ApiErrors(...INITIATE_ERRORS)
  deposit(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Body() body: WalletTransferRequestDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<WalletTransactionDto> {
    return this.initiate.execute(
      walletCommand(principal, 'deposit', accountId, body),
      idem,
      walletTransaction,
    );
  }

  @Post('withdrawals')
  @IdempotencyInTransaction()
  @ApiOperation({
    operationId: 'withdrawFromAccount',
    summary: 'Withdraw from an account',
    description:
      'Same body as a deposit. The amount is held at once (lowering `available`); above available cash the request ' +
      'answers 422 SVC-422-002 naming `amount`. Settlement debits cash and sends `net_amount` to the bank; a failure ' +
      `or cancel releases the hold. Emits \`transfer.withdrawal.initiated\`. ${LIFECYCLE}`,
  })
  @ApiCreatedResponse({ type: WalletTransactionDto })
  @ApiErrors(...INITIATE_ERRORS, 'SVC-422-002')
  withdraw(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Body() body: WalletTransferRequestDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<WalletTransactionDto> {
    return this.initiate.execute(
      walletCommand(principal, 'withdrawal', accountId, body),
      idem,
      walletTransaction,
    );
  }

  @Get('balances')
  @ApiOperation({
    operationId: 'getWalletBalances',
    summary: 'Wallet balances',
    description:
      'A bare array, one entry per currency (the account\u2019s primary currency first, present even when empty), ' +
      'derived from the ledger: `cash` is settled cash; `available` = cash − withdrawal holds − open buy-order holds ' +
      '(buying power); `pending_deposits` are deposits not yet settled.',
  })
  @ApiOkResponse({ type: [WalletBalanceDto] })
  @ApiErrors('SVC-404-001')
  balances(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
  ): Promise<WalletBalanceDto[]> {
    return this.transfers.balances(principal, accountId);
  }

  @Get('transactions')
  @ReadsMayLag()
  @ApiOperation({
    operationId: 'listWalletTransactions',
    summary: 'List wallet transactions',
    description:
      'A bare array of the account\u2019s deposits and withdrawals, newest first (by `created_at`, clock time), like the ' +
      'order list: `limit` 1 to 100 (default 50), `offset`, filters `type`, `status`, `created_gte`, `created_lt`.',
  })
  @ApiOkResponse({ type: [WalletTransactionDto] })
  @ApiErrors('SVC-400-001', 'SVC-404-001')
  list(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Query() query: WalletTransactionsQuery,
  ): Promise<WalletTransactionDto[]> {
    return this.transfers.listTransactions(principal, accountId, query);
  }

  @Get('transactions/:transaction_id')
  @TRANSACTION_ID
  @ApiOperation({
    operationId: 'getWalletTransaction',
    summary: 'Retrieve a wallet transaction',
    description: LIFECYCLE,
  })
  @ApiOkResponse({ type: WalletTransactionDto })
  @ApiErrors('SVC-404-001')
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Param('transaction_id') transactionId: string,
  ): Promise<WalletTransactionDto> {
    return this.transfers.getTransaction(principal, accountId, transactionId);
  }

  @Post('transactions/:transaction_id/cancel')
  @HttpCode(200)
  @TRANSACTION_ID
  @ApiOperation({
    operationId: 'cancelWalletTransaction',
    summary: 'Cancel a pending transaction',
    description:
      'Only while `pending` (before processing starts); any other status answers 409 SVC-409-001. A withdrawal\u2019s ' +
      'hold and a deposit\u2019s pending amount are released. Emits `transfer.deposit.canceled` or ' +
      '`transfer.withdrawal.canceled`.',
  })
  @ApiOkResponse({ type: WalletTransactionDto })
  @ApiErrors('SVC-404-001', 'SVC-409-001')
  cancel(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Param('transaction_id') transactionId: string,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<WalletTransactionDto> {
    return this.transfers.cancel(principal, accountId, transactionId, idem);
  }
}
