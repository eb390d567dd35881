import { Body, Controller, Get, Param, Post, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { ListEnvelope, listUrl } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import { CursorPageQuery } from 'src/core/http/pagination';
import {
  Idempotency,
  IdempotencyInTransaction,
  IdempotentRequest,
} from 'src/core/idempotency/idempotent-request';
import { CreateInvestorTransferDto } from 'src/modules/transfers/dto/transfer-request.dto';
import { DepositDto, WithdrawalDto } from 'src/modules/transfers/dto/wallet-transaction.dto';
import { investorCommand } from 'src/modules/transfers/transfer-commands';
import { transferView } from 'src/modules/transfers/transfer-views';
import { TransfersService } from 'src/modules/transfers/transfers.service';
import { InitiateTransfer } from 'src/modules/transfers/use-cases/initiate-transfer.use-case';
import { ReadsMayLag } from 'src/core/database/replicas/read-context';

const INVESTOR_ID = ApiParam({ name: 'investor_id', example: 'inv_4Qm1bX9kLr2TzP0aVn7c8w' });
const VIEWS =
  'The envelope view of a transfer: the same transfer as the wallet transaction named by `transaction_id` (which ' +
  'carries this id as `deposit_id` / `withdrawal_id`); both change together.';
const CREATE_ERRORS = ['SVC-400-001', 'SVC-400-002', 'SVC-404-001', 'SVC-422-001'] as const;

@ApiTags('Transfers')
@Controller('investors/:investor_id')
@INVESTOR_ID
export class InvestorTransfersController {
  constructor(
    private readonly initiate: InitiateTransfer,
    private readonly transfers: TransfersService,
  ) {}

  @Post('deposits')
  @IdempotencyInTransaction()
  @ApiOperation({
    operationId: 'createDeposit',
    summary: 'Create a deposit',
    description: `Same as POST /v1/wallet/accounts/{account_id}/funding, addressed by investor. ${VIEWS}`,
  })
  @ApiCreatedResponse({ type: DepositDto })
  @ApiErrors(...CREATE_ERRORS)
  createDeposit(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Body() body: CreateInvestorTransferDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ) {
    return this.initiate.execute(investorCommand(principal, 'deposit', investorId, body), idem, transferView);
  }

  @Get('deposits')
  @ReadsMayLag()
  @ApiOperation({
    operationId: 'listDeposits',
    summary: 'List deposits',
    description: `Newest first. ${VIEWS}`,
  })
  @ApiOkResponse({ type: ListEnvelopeOf(DepositDto, '/v1/investors/inv_4Qm1bX9kLr2TzP0aVn7c8w/deposits') })
  @ApiErrors('SVC-400-001', 'SVC-404-001')
  listDeposits(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Query() query: CursorPageQuery,
    @Req() req: Request,
  ): Promise<ListEnvelope<DepositDto | WithdrawalDto>> {
    return this.transfers.listViews(principal, investorId, 'deposit', query, listUrl(req));
  }

  @Get('deposits/:deposit_id')
  @ApiParam({ name: 'deposit_id', example: 'dep_Qv3nL8cT2mXa9Rb4Wk7ZpE' })
  @ApiOperation({ operationId: 'getDeposit', summary: 'Retrieve a deposit', description: VIEWS })
  @ApiOkResponse({ type: DepositDto })
  @ApiErrors('SVC-404-001')
  getDeposit(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Param('deposit_id') id: string,
  ) {
    return this.transfers.getView(principal, investorId, 'deposit', id);
  }

  @Post('withdrawals')
  @IdempotencyInTransaction()
  @ApiOperation({
    operationId: 'createWithdrawal',
    summary: 'Create a withdrawal',
    description:
      'Same as POST /v1/wallet/accounts/{account_id}/withdrawals, addressed by investor: held at once; above ' +
      `available cash 422 SVC-422-002 naming \`amount\`. ${VIEWS}`,
  })
  @ApiCreatedResponse({ type: WithdrawalDto })
  @ApiErrors(...CREATE_ERRORS, 'SVC-422-002')
  createWithdrawal(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Body() body: CreateInvestorTransferDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ) {
    return this.initiate.execute(
      investorCommand(principal, 'withdrawal', investorId, body),
      idem,
      transferView,
    );
  }

  @Get('withdrawals')
  @ReadsMayLag()
  @ApiOperation({
    operationId: 'listWithdrawals',
    summary: 'List withdrawals',
    description: `Newest first. ${VIEWS}`,
  })
  @ApiOkResponse({
    type: ListEnvelopeOf(WithdrawalDto, '/v1/investors/inv_4Qm1bX9kLr2TzP0aVn7c8w/withdrawals'),
  })
  @ApiErrors('SVC-400-001', 'SVC-404-001')
  listWithdrawals(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Query() query: CursorPageQuery,
    @Req() req: Request,
  ): Promise<ListEnvelope<DepositDto | WithdrawalDto>> {
    return this.transfers.listViews(principal, investorId, 'withdrawal', query, listUrl(req));
  }

  @Get('withdrawals/:withdrawal_id')
  @ApiParam({ name: 'withdrawal_id', example: 'wdr_Tz6pM1vK8qLc3Xa0Rn5BwD' })
  @ApiOperation({ operationId: 'getWithdrawal', summary: 'Retrieve a withdrawal', description: VIEWS })
  @ApiOkResponse({ type: WithdrawalDto })
  @ApiErrors('SVC-404-001')
  getWithdrawal(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Param('withdrawal_id') id: string,
  ) {
    return this.transfers.getView(principal, investorId, 'withdrawal', id);
  }
}
