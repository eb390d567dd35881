import { Body, Controller, Delete, Get, Param, Post, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { ListEnvelope, listUrl } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import { CursorPageQuery } from 'src/core/http/pagination';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import {
  CreateFundingSourceDto,
  DeletedFundingSourceDto,
  FundingSourceDto,
} from 'src/modules/funding-sources/dto/funding-source.dto';
import { FundingSourcesService } from 'src/modules/funding-sources/funding-sources.service';
import { ReadsMayLag } from 'src/core/database/replicas/read-context';

const FUNDING_SOURCE_ID = ApiParam({ name: 'funding_source_id', example: 'fs_3kTq9Lm2XbVa7Pn0Rz4cWd' });

@ApiTags('Funding Sources')
@Controller('investors/:investor_id/funding-sources')
@ApiParam({ name: 'investor_id', example: 'inv_4Qm1bX9kLr2TzP0aVn7c8w' })
export class FundingSourcesController {
  constructor(private readonly fundingSources: FundingSourcesService) {}

  @Post()
  @ApiOperation({
    operationId: 'createFundingSource',
    summary: 'Link a bank account',
    description:
      'Links a bank account to the investor: `routing_number` for US accounts, `bank_code` elsewhere. The number is ' +
      'stored encrypted and shown as `account_number_last4`. New bank accounts are `verified` and usable at once ' +
      '(as `funding_details.bank_account_id` of deposits and withdrawals). Sandbox: `000111111116` makes its transfers ' +
      'fail; any other number settles. A CLOSED account answers 422 SVC-422-001.',
  })
  @ApiCreatedResponse({ type: FundingSourceDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002', 'SVC-404-001', 'SVC-422-001')
  create(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Body() body: CreateFundingSourceDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<FundingSourceDto> {
    return this.fundingSources.create(principal, investorId, body, idem);
  }

  @Get()
  @ReadsMayLag()
  @ApiOperation({
    operationId: 'listFundingSources',
    summary: 'List bank accounts',
    description: 'Newest first.',
  })
  @ApiOkResponse({
    type: ListEnvelopeOf(FundingSourceDto, '/v1/investors/inv_4Qm1bX9kLr2TzP0aVn7c8w/funding-sources'),
  })
  @ApiErrors('SVC-400-001', 'SVC-404-001')
  list(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Query() query: CursorPageQuery,
    @Req() req: Request,
  ): Promise<ListEnvelope<FundingSourceDto>> {
    return this.fundingSources.list(principal, investorId, query, listUrl(req));
  }

  @Get(':funding_source_id')
  @FUNDING_SOURCE_ID
  @ApiOperation({
    operationId: 'getFundingSource',
    summary: 'Retrieve a bank account',
    description: 'A removed one answers 404.',
  })
  @ApiOkResponse({ type: FundingSourceDto })
  @ApiErrors('SVC-404-001')
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Param('funding_source_id') id: string,
  ): Promise<FundingSourceDto> {
    return this.fundingSources.get(principal, investorId, id);
  }

  @Delete(':funding_source_id')
  @FUNDING_SOURCE_ID
  @ApiOperation({
    operationId: 'deleteFundingSource',
    summary: 'Remove a bank account',
    description: 'It can no longer start transfers; transfers already started with it go on.',
  })
  @ApiOkResponse({ type: DeletedFundingSourceDto })
  @ApiErrors('SVC-404-001')
  remove(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Param('funding_source_id') id: string,
  ): Promise<DeletedFundingSourceDto> {
    return this.fundingSources.remove(principal, investorId, id);
  }
}
