import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { ListEnvelope, listUrl, toList } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import { DisclosuresService } from 'src/modules/disclosures/disclosures.service';
import { AcceptAgreementsDto } from 'src/modules/disclosures/dto/agreement-acceptance.dto';
import { AgreementDto, DisclosureDto } from 'src/modules/disclosures/dto/disclosure.dto';

const INVESTOR_ID = ApiParam({ name: 'investor_id', example: 'inv_4Qm1bX9kLr2TzP0aVn7c8w' });

@ApiTags('Disclosures')
@Controller()
export class DisclosuresController {
  constructor(private readonly disclosures: DisclosuresService) {}

  @Get('disclosures')
  @ApiOperation({
    operationId: 'listDisclosures',
    summary: 'List disclosures',
    description:
      'The regulatory documents an investor accepts, each at its current revision. `required_for` says what ' +
      'needs it: `account` (KYC approval), `margin_trading`, `crypto`, `options`. The whole catalog in one page.',
  })
  @ApiOkResponse({ type: ListEnvelopeOf(DisclosureDto, '/v1/disclosures') })
  list(@CurrentPrincipal() principal: Principal, @Req() req: Request): ListEnvelope<DisclosureDto> {
    return toList(listUrl(req), this.disclosures.list(principal), false);
  }

  @Post('investors/:investor_id/agreements')
  @HttpCode(200)
  @INVESTOR_ID
  @ApiOperation({
    operationId: 'acceptAgreements',
    summary: 'Accept disclosures',
    description:
      'Records that the investor accepted one or more disclosures at their current revision, with the IP ' +
      'address and time (default now) of acceptance, on the investor’s account (`agreements` of the account ' +
      'record). Accepting a revision again keeps the first record. Answers every agreement on the account. ' +
      'Emits `account.updated` when something new was recorded.',
  })
  @ApiOkResponse({
    type: ListEnvelopeOf(AgreementDto, '/v1/investors/inv_4Qm1bX9kLr2TzP0aVn7c8w/agreements'),
  })
  @ApiErrors('SVC-400-001', 'SVC-400-002', 'SVC-404-001', 'SVC-409-001')
  accept(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Body() body: AcceptAgreementsDto,
    @Req() req: Request,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<ListEnvelope<AgreementDto>> {
    return this.disclosures.accept(principal, investorId, body, listUrl(req), idem);
  }

  @Get('investors/:investor_id/agreements')
  @INVESTOR_ID
  @ApiOperation({
    operationId: 'listAgreements',
    summary: 'List accepted disclosures',
    description: 'Every agreement recorded on the investor’s account, oldest first.',
  })
  @ApiOkResponse({
    type: ListEnvelopeOf(AgreementDto, '/v1/investors/inv_4Qm1bX9kLr2TzP0aVn7c8w/agreements'),
  })
  @ApiErrors('SVC-404-001')
  async listAccepted(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Req() req: Request,
  ): Promise<ListEnvelope<AgreementDto>> {
    return toList(listUrl(req), await this.disclosures.listAccepted(principal, investorId), false);
  }
}
