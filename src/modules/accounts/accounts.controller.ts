import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, TenantLevel } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import type { AccountRecord } from 'src/modules/accounts/account-record';
import { AccountLifecycleService } from 'src/modules/accounts/account-lifecycle.service';
import { AccountsService } from 'src/modules/accounts/accounts.service';
import { AccountDto } from 'src/modules/accounts/dto/account.dto';
import { ReadsMayLag } from 'src/core/database/replicas/read-context';

const ACCOUNT_ID = ApiParam({
  name: 'account_id',
  format: 'uuid',
  description: 'Investment account id.',
  example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b',
});

@ApiTags('Accounts')
@Controller('accounts')
export class AccountsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly lifecycle: AccountLifecycleService,
  ) {}

  @Get()
  @ReadsMayLag()
  @ApiOperation({
    operationId: 'listAccounts',
    summary: 'List investment accounts',
    description:
      'A bare JSON array (no list envelope) of the caller’s investment accounts, newest first. A tenant key ' +
      'sees every account of its mode (test or live); an investor-scoped key sees only its own.',
  })
  @ApiOkResponse({ type: [AccountDto] })
  list(@CurrentPrincipal() principal: Principal): Promise<AccountRecord[]> {
    return this.accounts.listRecords(principal);
  }

  @Get(':account_id')
  @ACCOUNT_ID
  @ApiOperation({
    operationId: 'getAccount',
    summary: 'Retrieve an investment account',
    description:
      'The account-style record: uppercase statuses, three-letter country codes, money as decimal strings. ' +
      'Lifecycle: SUBMITTED → PENDING_APPROVAL (KYC submitted) → ACTIVE; a rejected application returns to ' +
      'SUBMITTED; ACTIVE ⇄ SUSPENDED; any status → CLOSED (final).',
  })
  @ApiOkResponse({ type: AccountDto })
  @ApiErrors('SVC-404-001')
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
  ): Promise<AccountRecord> {
    return this.accounts.getRecord(principal, accountId);
  }

  @Post(':account_id/actions/suspend')
  @HttpCode(200)
  @TenantLevel()
  @ACCOUNT_ID
  @ApiOperation({
    operationId: 'suspendAccount',
    summary: 'Suspend an account',
    description:
      'ACTIVE → SUSPENDED: the account can no longer trade or move money; crypto_status follows. Its open ' +
      'orders are canceled (reason `account suspended`, holds released, `order.canceled`); transfers already ' +
      'in flight finish. Other statuses answer 409 SVC-409-001. Emits `account.updated`.',
  })
  @ApiOkResponse({ type: AccountDto })
  @ApiErrors('SVC-404-001', 'SVC-409-001')
  suspend(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Idempotency() idem: IdempotentRequest | undefined,
  ) {
    return this.lifecycle.applyAction(principal, accountId, 'suspend', idem);
  }

  @Post(':account_id/actions/reactivate')
  @HttpCode(200)
  @TenantLevel()
  @ACCOUNT_ID
  @ApiOperation({
    operationId: 'reactivateAccount',
    summary: 'Reactivate a suspended account',
    description: 'SUSPENDED → ACTIVE. Other statuses answer 409 SVC-409-001. Emits `account.updated`.',
  })
  @ApiOkResponse({ type: AccountDto })
  @ApiErrors('SVC-404-001', 'SVC-409-001')
  reactivate(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Idempotency() idem: IdempotentRequest | undefined,
  ) {
    return this.lifecycle.applyAction(principal, accountId, 'reactivate', idem);
  }

  @Post(':account_id/actions/close')
  @HttpCode(200)
  @TenantLevel()
  @ACCOUNT_ID
  @ApiOperation({
    operationId: 'closeAccount',
    summary: 'Close an account',
    description:
      'Any status except CLOSED → CLOSED, which is final: the account and its investor can change no more, and ' +
      'it moves no money. So an account that still holds anything answers 409 SVC-409-001 naming what: cash, ' +
      'pending deposits, open orders, positions or transfers in flight (withdraw, sell, cancel or wait, then ' +
      'close). Closing a CLOSED account answers 409 SVC-409-001 too. Emits `account.updated`.',
  })
  @ApiOkResponse({ type: AccountDto })
  @ApiErrors('SVC-404-001', 'SVC-409-001')
  close(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Idempotency() idem: IdempotentRequest | undefined,
  ) {
    return this.lifecycle.applyAction(principal, accountId, 'close', idem);
  }
}
