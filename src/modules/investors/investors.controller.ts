import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal, TenantLevel } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import type { ListEnvelope } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import { CreateInvestorDto } from 'src/modules/investors/dto/create-investor.dto';
import { InvestorDto } from 'src/modules/investors/dto/investor.dto';
import { ListInvestorsQuery } from 'src/modules/investors/dto/list-investors.query';
import { UpdateInvestorDto } from 'src/modules/investors/dto/update-investor.dto';
import { InvestorsService } from 'src/modules/investors/investors.service';
import { ReadsMayLag } from 'src/core/database/replicas/read-context';

const INVESTOR_ID = ApiParam({ name: 'investor_id', example: 'inv_4Qm1bX9kLr2TzP0aVn7c8w' });
const UPDATE_DESCRIPTION =
  'Partial update: only the fields sent change; `contact.address`, when sent, replaces the whole address; ' +
  'null clears an optional field; metadata keys set to "" are removed. Identity, tax id, disclosures and ' +
  'currency can change only while the account is SUBMITTED (409 SVC-409-001 after KYC submission); a CLOSED ' +
  'investor changes no more. Emits `account.updated` (with `changed`) when something changed.';

@ApiTags('Investors')
@Controller('investors')
export class InvestorsController {
  constructor(private readonly investors: InvestorsService) {}

  @Post()
  @TenantLevel()
  @ApiOperation({
    operationId: 'createInvestor',
    summary: 'Create an investor',
    description:
      'Creates the investor and, in the same transaction, its investment account in status SUBMITTED ' +
      '(`account.created`). Every field is validated and the error names it in `param` (for example ' +
      '`contact.address.country`, `contact.address.street[0]`, `identity.tax_id`): ISO 3166-1 alpha-2 ' +
      'countries, a date of birth in the past of someone 18 or older, the tax id formatted as its ' +
      '`tax_id_type` requires and issued by `country_of_tax_residence`, an e-mail address, an E.164 phone ' +
      'number, state and ZIP code for US addresses. Tenant keys only.',
  })
  @ApiCreatedResponse({ type: InvestorDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002', 'SVC-422-001')
  create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateInvestorDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<InvestorDto> {
    return this.investors.create(principal, body, idem);
  }

  @Get()
  @ReadsMayLag()
  @TenantLevel()
  @ApiOperation({
    operationId: 'listInvestors',
    summary: 'List investors',
    description: 'Investors of the key’s mode, newest first, with cursor pagination. Tenant keys only.',
  })
  @ApiOkResponse({ type: ListEnvelopeOf(InvestorDto, '/v1/investors') })
  @ApiErrors('SVC-400-001')
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListInvestorsQuery,
    @Req() req: Request,
  ): Promise<ListEnvelope<InvestorDto>> {
    return this.investors.list(principal, query, req);
  }

  @Get(':investor_id')
  @INVESTOR_ID
  @ApiOperation({
    operationId: 'getInvestor',
    summary: 'Retrieve an investor',
    description: 'An investor-scoped key may read only its own investor; any other id answers 404.',
  })
  @ApiOkResponse({ type: InvestorDto })
  @ApiErrors('SVC-404-001')
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
  ): Promise<InvestorDto> {
    return this.investors.get(principal, investorId);
  }

  @Patch(':investor_id')
  @INVESTOR_ID
  @ApiOperation({
    operationId: 'updateInvestor',
    summary: 'Update an investor',
    description: UPDATE_DESCRIPTION,
  })
  @ApiOkResponse({ type: InvestorDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002', 'SVC-404-001', 'SVC-409-001', 'SVC-422-001')
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Body() body: UpdateInvestorDto,
  ): Promise<InvestorDto> {
    return this.investors.update(principal, investorId, body, undefined);
  }

  @Post(':investor_id')
  @HttpCode(200)
  @INVESTOR_ID
  @ApiOperation({
    operationId: 'updateInvestorByPost',
    summary: 'Update an investor (POST form)',
    description: `Same as PATCH /v1/investors/{investor_id}, for clients that update with POST. ${UPDATE_DESCRIPTION}`,
  })
  @ApiOkResponse({ type: InvestorDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002', 'SVC-404-001', 'SVC-409-001', 'SVC-422-001')
  updateByPost(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Body() body: UpdateInvestorDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<InvestorDto> {
    return this.investors.update(principal, investorId, body, idem);
  }
}
