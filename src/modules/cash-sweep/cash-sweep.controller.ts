import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal, TenantLevel, TestModeOnly } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { listUrl } from 'src/core/http/envelope';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { AccrueThrough, AccrualRun } from 'src/modules/cash-sweep/use-cases/accrue-through.use-case';
import { CashSweepReads } from 'src/modules/cash-sweep/cash-sweep-reads.service';
import { AccrualRunDto } from 'src/modules/cash-sweep/dto/accrual-run.dto';
import { CashSweepOverviewDto, InterestHistoryPageDto } from 'src/modules/cash-sweep/dto/cash-sweep.dto';
import { AccrueThroughDto, InterestHistoryQuery } from 'src/modules/cash-sweep/dto/cash-sweep.inputs';

const FORMULA =
  'Each calendar day (weekends and holidays too) gives one entry per enrolled account and currency: ' +
  '`cash_balance` is the settled cash at the end of the day in the market\u2019s time zone (New York for USD), ' +
  '`account_accrued_interest` = cash_balance × account_rate_bps / 10,000 / 365 and `correspondent_fee` = ' +
  'cash_balance × correspondent_rate_bps / 10,000 / 365, each rounded half-even to 8 decimals.';

@ApiTags('Cash Sweep')
@Controller('investors/:investor_id/cash-sweep')
@ApiParam({ name: 'investor_id', example: 'inv_4Qm1bX9kLr2TzP0aVn7c8w' })
export class CashSweepController {
  constructor(private readonly reads: CashSweepReads) {}

  @Get('interest')
  @ApiOperation({
    operationId: 'listCashSweepInterest',
    summary: 'Interest history',
    description:
      `${FORMULA} Entries come oldest first (by date, then currency), \`page_size\` 1 to 10000 (default 100); ` +
      '`next_page_token` (null on the last page) is sent back as `page_token` with the same `date`, `after` and ' +
      '`before`. Bad values answer 400 naming the parameter. Investor keys see their own investor only.',
  })
  @ApiOkResponse({ type: InterestHistoryPageDto })
  @ApiErrors('SVC-400-001', 'SVC-404-001')
  interest(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Query() query: InterestHistoryQuery,
    @Req() req: Request,
  ): Promise<InterestHistoryPageDto> {
    return this.reads.interestHistory(principal, investorId, query, listUrl(req));
  }

  @Get()
  @ApiOperation({
    operationId: 'getCashSweep',
    summary: 'Cash sweep overview',
    description:
      'The account\u2019s enrollment (tier and rates), interest accrued so far this month, the last day accrued and ' +
      'the last payout. The month\u2019s interest is paid into cash on the first business day of the next month ' +
      '(US calendar, 09:00 New York), rounded half-even to cents, with the event `cash_sweep.interest.paid`.',
  })
  @ApiOkResponse({ type: CashSweepOverviewDto })
  @ApiErrors('SVC-404-001')
  overview(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
  ): Promise<CashSweepOverviewDto> {
    return this.reads.overview(principal, investorId) as Promise<CashSweepOverviewDto>;
  }
}

@ApiTags('Cash Sweep')
@TestModeOnly()
@TenantLevel()
@Controller('test_helpers/cash-sweep')
export class CashSweepTestHelpersController {
  constructor(private readonly accrue: AccrueThrough) {}

  @Post('accrue')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'testHelperAccrueCashSweep',
    summary: 'Accrue interest now (test helper)',
    description:
      'Writes the interest history of every day from each enrollment\u2019s start through `through` at once (days ' +
      'already accrued stay unchanged) and pays each month whose payout time has passed on the clock. `through` ' +
      'must be a day that has ended (before today in New York; 400 otherwise). Tenant-level, test keys only.',
  })
  @ApiOkResponse({ type: AccrualRunDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002')
  run(
    @CurrentPrincipal() principal: Principal,
    @Body() body: AccrueThroughDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<AccrualRun> {
    return this.accrue.execute(principal, body.through, idem);
  }
}
