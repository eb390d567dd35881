import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, TestModeOnly } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { FailTransferDto } from 'src/modules/transfers/dto/transfer-request.dto';
import { WalletTransactionDto } from 'src/modules/transfers/dto/wallet-transaction.dto';
import { TransfersService } from 'src/modules/transfers/transfers.service';

const SCOPE =
  'Test keys only (live keys get 404); a tenant key, or the key of the transaction\u2019s own investor. Pending or ' +
  'processing transactions only (409 SVC-409-001 otherwise); its scheduled steps are dropped.';

@ApiTags('Wallet')
@TestModeOnly()
@Controller('test_helpers/wallet/transactions/:transaction_id')
@ApiParam({ name: 'transaction_id', example: 'txn_8Wm2cQx4Lr7Tb1Nv5Zk9Pa' })
export class WalletTestHelpersController {
  constructor(private readonly transfers: TransfersService) {}

  @Post('settle')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'testHelperSettleTransaction',
    summary: 'Settle a transaction now (test helper)',
    description: `Settles at the clock\u2019s now: cash moves and \`transfer.*.completed\` is emitted. ${SCOPE}`,
  })
  @ApiOkResponse({ type: WalletTransactionDto })
  @ApiErrors('SVC-404-001', 'SVC-409-001')
  settle(
    @CurrentPrincipal() principal: Principal,
    @Param('transaction_id') transactionId: string,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<WalletTransactionDto> {
    return this.transfers.finishNow(principal, transactionId, { settle: true }, idem);
  }

  @Post('fail')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'testHelperFailTransaction',
    summary: 'Fail a transaction now (test helper)',
    description:
      'Fails at the clock\u2019s now with `failure_reason` (default `failed_by_test_helper`): a withdrawal\u2019s hold or ' +
      `a deposit\u2019s pending amount is released and \`transfer.*.failed\` is emitted. ${SCOPE}`,
  })
  @ApiOkResponse({ type: WalletTransactionDto })
  @ApiErrors('SVC-400-001', 'SVC-404-001', 'SVC-409-001')
  fail(
    @CurrentPrincipal() principal: Principal,
    @Param('transaction_id') transactionId: string,
    @Body() body: FailTransferDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<WalletTransactionDto> {
    return this.transfers.finishNow(
      principal,
      transactionId,
      { settle: false, reason: body.failure_reason },
      idem,
    );
  }
}
