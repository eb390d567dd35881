import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal, TenantLevel, TestModeOnly } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { ListEnvelope, listUrl } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { CorporateActionsService } from 'src/modules/corporate-actions/corporate-actions.service';
import {
  CorporateActionDto,
  CorporateActionEntitlementDto,
  CreateTestCorporateActionDto,
} from 'src/modules/corporate-actions/dto/corporate-action.dto';
import {
  ListCorporateActionsQuery,
  ListEntitlementsQuery,
} from 'src/modules/corporate-actions/dto/corporate-action.queries';
import { ReadsMayLag } from 'src/core/database/replicas/read-context';

const ID = { name: 'id', example: 'ca_4fJx2m9QpT7aLk3Vn8ZcYw' };

const RULES =
  'Splits, reverse splits and stock dividends apply at 04:00 of `ex_date` in the market’s time zone, before ' +
  'its first session: quantity × new_rate / old_rate, total cost basis kept; a non-fractionable asset keeps ' +
  'whole shares and the fraction is paid as cash in lieu at the previous close × old_rate / new_rate. Cash ' +
  'dividends are paid at 04:00 of `payable_date` to the holders at the close of the last business day before ' +
  '`ex_date`: gross = quantity × cash_rate and, for investors whose tax residence is not the US, withholding = ' +
  'gross × the tenant’s `dividend_withholding_bps` (default 3000), each rounded half-even to the minor unit. ' +
  'Symbol changes and mergers apply at 04:00 of `ex_date` too. A symbol change gives the asset (same `id`) ' +
  '`new_symbol`: positions keep quantity, cost basis and dates, open orders stay open and show the new symbol, ' +
  'past orders and executions keep theirs, and the old symbol is unknown to search and placement (activity ' +
  '`NC`: minus the old symbol, plus the new). A cash merger closes the position at cash_rate per share ' +
  '(rounded half-even to the minor unit), realizing cash − cost basis; a stock merger turns it into quantity × ' +
  'new_rate / old_rate shares of the acquirer (`new_asset_id`, `new_symbol`) with the cost basis carried over ' +
  'and averaged into any position there, plus cash_rate × quantity in cash; a non-fractionable acquirer gives ' +
  'whole shares and pays the fraction as cash in lieu at its previous close (activity `MA`: minus the target, ' +
  'with the cash, plus the acquirer; `CIL`). The merged asset becomes inactive and not tradable. Open orders ' +
  'on the symbol are canceled (reason `corporate_action`, holds released, `order.canceled`) when a split, ' +
  'reverse split, stock dividend or merger applies; a symbol change and a dividend leave them open.';

@ApiTags('Corporate actions')
@Controller('corporate-actions')
export class CorporateActionsController {
  constructor(private readonly service: CorporateActionsService) {}

  @Get()
  @ReadsMayLag()
  @ApiOperation({
    operationId: 'listCorporateActions',
    summary: 'List corporate actions',
    description:
      'Announcements reaching your tenant and mode: market-wide ones and, in test mode, those your test helper ' +
      'created. Newest `ex_date` first; filters `symbol`, `type`, `status`, `ex_date_gte`, `ex_date_lte`; cursor ' +
      `paging with \`starting_after\` / \`ending_before\`. \`status\` is your tenant and mode’s. ${RULES}`,
  })
  @ApiOkResponse({ type: ListEnvelopeOf(CorporateActionDto, '/v1/corporate-actions') })
  @ApiErrors('SVC-400-001')
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListCorporateActionsQuery,
    @Req() req: Request,
  ): Promise<ListEnvelope<CorporateActionDto>> {
    return this.service.list(principal, query, listUrl(req));
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getCorporateAction', summary: 'Get a corporate action', description: RULES })
  @ApiParam(ID)
  @ApiOkResponse({ type: CorporateActionDto })
  @ApiErrors('SVC-404-001')
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<CorporateActionDto> {
    return this.service.get(principal, id);
  }

  @Get(':id/entitlements')
  @TenantLevel()
  @ApiOperation({
    operationId: 'listCorporateActionEntitlements',
    summary: 'List the entitlements of a corporate action',
    description:
      'One row per account of your tenant and mode the action reached, in account order (`starting_after` an ' +
      '`account_id`): eligible quantity, cash, withholding, quantity change, cash in lieu and status (`pending` ' +
      'until paid, `applied`, or `skipped` when a dividend rounds to less than one minor unit). Tenant-level.',
  })
  @ApiParam(ID)
  @ApiOkResponse({
    type: ListEnvelopeOf(
      CorporateActionEntitlementDto,
      '/v1/corporate-actions/ca_4fJx2m9QpT7aLk3Vn8ZcYw/entitlements',
    ),
  })
  @ApiErrors('SVC-400-001', 'SVC-404-001')
  entitlements(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query() query: ListEntitlementsQuery,
    @Req() req: Request,
  ): Promise<ListEnvelope<CorporateActionEntitlementDto>> {
    return this.service.listEntitlements(principal, id, query, listUrl(req));
  }
}

@ApiTags('Corporate actions')
@TestModeOnly()
@TenantLevel()
@Controller('test_helpers/corporate-actions')
export class CorporateActionTestHelpersController {
  constructor(private readonly service: CorporateActionsService) {}

  @Post()
  @ApiOperation({
    operationId: 'testHelperAnnounceCorporateAction',
    summary: 'Announce a corporate action (test helper)',
    description:
      'Announces an action for your test mode only (`symbol` names the asset, an equity or ETF): `cash_dividend` ' +
      '(`cash_rate`, `payable_date`), `stock_split` (`new_rate` > `old_rate`), `reverse_split` (`new_rate` < ' +
      '`old_rate`), `stock_dividend` (`new_rate`/`old_rate` as a split: 5 % is 21 for 20), `symbol_change` ' +
      '(`new_symbol`, a ticker no other asset has), `cash_merger` (`cash_rate`; `payable_date` optional) or ' +
      '`stock_merger` (the acquirer by `new_asset_id` or `new_symbol`, an active equity or ETF in the same ' +
      'currency; `new_rate`, `old_rate`; `cash_rate` optional). `record_date` defaults to `ex_date`. A field of ' +
      'another type, a missing field, a date out of order, a rate of zero or less or an unknown symbol or ' +
      'acquirer is 400 naming the field. Sends `corporate_action.announced`; processing follows your test ' +
      'clock, and what the action changes (prices, symbol, tradability) is seen by your test keys only. ' +
      `Tenant-level, test keys only. ${RULES}`,
  })
  @ApiCreatedResponse({ type: CorporateActionDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002')
  announce(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateTestCorporateActionDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<CorporateActionDto> {
    return this.service.announce(principal, body, idem);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'testHelperCancelCorporateAction',
    summary: 'Cancel a corporate action (test helper)',
    description:
      'Withdraws an action your test helper announced, before its processing started (409 SVC-409-001 after). ' +
      'Tenant-level, test keys only.',
  })
  @ApiParam(ID)
  @ApiOkResponse({ type: CorporateActionDto })
  @ApiErrors('SVC-404-001', 'SVC-409-001')
  cancel(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<CorporateActionDto> {
    return this.service.cancel(principal, id, idem);
  }
}
