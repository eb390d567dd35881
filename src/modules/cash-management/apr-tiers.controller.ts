import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal, RequiresProductTenantLevel } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { listUrl, toList } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { AprTiersService } from 'src/modules/cash-sweep/apr-tiers.service';
import type { AprTierView } from 'src/modules/cash-sweep/cash-sweep-views';
import { AprTierDto } from 'src/modules/cash-sweep/dto/cash-sweep.dto';
import {
  CreateAprTierDto,
  ListAprTiersQuery,
  UpdateAprTierDto,
} from 'src/modules/cash-sweep/dto/cash-sweep.inputs';

const TIER_ID = ApiParam({ name: 'tier_id', example: 'apr_4kTq9Lm2XbVa7Pn0Rz4cWd' });
const SCOPE =
  ' Tenant-level (investor keys 403); the Cash Management add-on must be enabled (legacy 403 body otherwise).';

/** The APR tiers of the partner's cash program: create, list, read, change and retire them. */
@ApiTags('Cash Management')
@RequiresProductTenantLevel('cash_management')
@Controller('cash-management/apr-tiers')
export class AprTiersController {
  constructor(private readonly tiers: AprTiersService) {}

  @Post()
  @ApiOperation({
    operationId: 'createAprTier',
    summary: 'Create an APR tier',
    description:
      'A tier of one currency: `account_rate_bps` is the investor\u2019s share of the yearly rate and ' +
      '`correspondent_rate_bps` the partner\u2019s (together at most 10000). Names are unique among the ' +
      `currency\u2019s active tiers (400 naming \`name\`). \`is_default: true\` makes new accounts join it.${SCOPE}`,
  })
  @ApiCreatedResponse({ type: AprTierDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002')
  create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateAprTierDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<AprTierView> {
    return this.tiers.create(principal, body, idem);
  }

  @Get()
  @ApiOperation({
    operationId: 'listAprTiers',
    summary: 'List APR tiers',
    description: `Oldest first, filtered by \`currency\` and \`status\`. The \`standard\` default tier is always there.${SCOPE}`,
  })
  @ApiOkResponse({ type: ListEnvelopeOf(AprTierDto, '/v1/cash-management/apr-tiers') })
  @ApiErrors('SVC-400-001')
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListAprTiersQuery,
    @Req() req: Request,
  ) {
    const { data, hasMore } = await this.tiers.list(principal, query);
    return toList(listUrl(req), data, hasMore);
  }

  @Get(':tier_id')
  @TIER_ID
  @ApiOperation({
    operationId: 'getAprTier',
    summary: 'Get an APR tier',
    description: `One tier by id.${SCOPE}`,
  })
  @ApiOkResponse({ type: AprTierDto })
  @ApiErrors('SVC-404-001')
  get(@CurrentPrincipal() principal: Principal, @Param('tier_id') tierId: string): Promise<AprTierView> {
    return this.tiers.get(principal, tierId);
  }

  @Patch(':tier_id')
  @TIER_ID
  @ApiOperation({
    operationId: 'updateAprTier',
    summary: 'Update an APR tier',
    description:
      'Changes the name, rates, metadata, or makes it the default. New rates apply to every account in the tier ' +
      `from the next day accrued; days already accrued keep theirs. A retired tier answers 409.${SCOPE}`,
  })
  @ApiOkResponse({ type: AprTierDto })
  @ApiErrors('SVC-400-001', 'SVC-404-001', 'SVC-409-001')
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('tier_id') tierId: string,
    @Body() body: UpdateAprTierDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<AprTierView> {
    return this.tiers.update(principal, tierId, body, idem);
  }

  @Post(':tier_id/retire')
  @HttpCode(200)
  @TIER_ID
  @ApiOperation({
    operationId: 'retireAprTier',
    summary: 'Retire an APR tier',
    description:
      'Status `retired`: its accounts move to the currency\u2019s default tier from the next day accrued. The ' +
      `default tier cannot be retired, nor a retired one again (409).${SCOPE}`,
  })
  @ApiOkResponse({ type: AprTierDto })
  @ApiErrors('SVC-404-001', 'SVC-409-001')
  retire(
    @CurrentPrincipal() principal: Principal,
    @Param('tier_id') tierId: string,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<AprTierView> {
    return this.tiers.retire(principal, tierId, idem);
  }
}
