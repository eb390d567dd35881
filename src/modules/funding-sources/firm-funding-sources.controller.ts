import { Body, Controller, Get, Post, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal, TenantLevel } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { ListEnvelope, listUrl } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import { CursorPageQuery } from 'src/core/http/pagination';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { CreateFundingSourceDto, FundingSourceDto } from 'src/modules/funding-sources/dto/funding-source.dto';
import { FundingSourcesService } from 'src/modules/funding-sources/funding-sources.service';

/** Bank accounts of the tenant's firm account (tenant-level keys only). */
@ApiTags('Firm account')
@TenantLevel()
@Controller('firm-account/funding-sources')
export class FirmFundingSourcesController {
  constructor(private readonly fundingSources: FundingSourcesService) {}

  @Post()
  @ApiOperation({
    operationId: 'createFirmFundingSource',
    summary: 'Link a bank account to the firm account',
    description:
      'The investor\u2019s funding-source body, for the tenant\u2019s firm account: name it in `funding_details.bank_account_id` ' +
      'of deposits and withdrawals on the firm account\u2019s wallet routes. `investor_id` is null. Tenant-level keys ' +
      'only (investor keys: 403 SVC-403-001).',
  })
  @ApiCreatedResponse({ type: FundingSourceDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002')
  create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateFundingSourceDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<FundingSourceDto> {
    return this.fundingSources.createForFirm(principal, body, idem);
  }

  @Get()
  @ApiOperation({
    operationId: 'listFirmFundingSources',
    summary: 'List the firm account\u2019s bank accounts',
    description: 'Newest first; `limit` 1 to 100 (default 50), cursor `starting_after` / `ending_before`.',
  })
  @ApiOkResponse({ type: ListEnvelopeOf(FundingSourceDto, '/v1/firm-account/funding-sources') })
  @ApiErrors('SVC-400-001')
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: CursorPageQuery,
    @Req() req: Request,
  ): Promise<ListEnvelope<FundingSourceDto>> {
    return this.fundingSources.listForFirm(principal, query, listUrl(req));
  }
}
