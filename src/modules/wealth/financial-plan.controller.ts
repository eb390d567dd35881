import { Body, Controller, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import {
  FinancialPlanInputDto,
  UpdateFinancialPlanDto,
} from 'src/modules/wealth/dto/financial-plan-input.dto';
import { FinancialPlanDto } from 'src/modules/wealth/dto/financial-plan.dto';
import { FinancialPlanQuery } from 'src/modules/wealth/dto/financial-plan-query';
import { FinancialPlanService } from 'src/modules/wealth/financial-plan.service';
import { planChanges } from 'src/modules/wealth/plan-changes';

export const ACCOUNT_ID = ApiParam({
  name: 'account_id',
  format: 'uuid',
  example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b',
});
export const FIGURES =
  'Every goal carries `current_amount` (the account\u2019s equity when `linked_to_account`), `progress_percent`, ' +
  '`amount_remaining`, `projected_completion_date` and `on_track`, computed for today (the clock\u2019s date): monthly ' +
  'compounding at `expected_return_rate`, contributions at month end, in today\u2019s money when `inflation_assumption` ' +
  'is set. Every write stores the next `version`.';

@ApiTags('Wealth')
@Controller('wealth/accounts/:account_id/financial-plan')
@ACCOUNT_ID
export class FinancialPlanController {
  constructor(private readonly plans: FinancialPlanService) {}

  @Get()
  @ApiOperation({
    operationId: 'getFinancialPlan',
    summary: 'Retrieve an account\u2019s financial plan',
    description:
      `${FIGURES} \`include_projections=true\` adds each goal\u2019s \`projection\`: the monthly path until its ` +
      'target date and a p10/p50/p90 range at that date from 500 simulated paths (volatility by `risk_capacity`, ' +
      'seeded by plan, version and goal: the same version answers the same range). `version=N` reads a stored ' +
      'version. No plan (or no such version): 404.',
  })
  @ApiOkResponse({ type: FinancialPlanDto })
  @ApiErrors('SVC-400-001', 'SVC-404-001')
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Query() query: FinancialPlanQuery,
  ): Promise<FinancialPlanDto> {
    return this.plans.get(principal, accountId, query);
  }

  @Put()
  @ApiOperation({
    operationId: 'putFinancialPlan',
    summary: 'Create or replace the financial plan',
    description:
      'The whole plan: fields left out take their defaults (no goals, zero income and expenses, expected_return_rate ' +
      '"0.05", no inflation, risk_capacity medium). 201 when the account had no plan (version 1), else 200 with the ' +
      'next version; an archived plan becomes active again. Goals keep their `goal_id` when it is sent. Amounts are ' +
      `decimal strings in the account\u2019s currency; a bad one is 400 naming the field. ${FIGURES}`,
  })
  @ApiCreatedResponse({ type: FinancialPlanDto, description: 'The plan was created.' })
  @ApiOkResponse({ type: FinancialPlanDto, description: 'The plan was replaced.' })
  @ApiErrors('SVC-400-001', 'SVC-400-002', 'SVC-404-001')
  async put(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Body() body: FinancialPlanInputDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FinancialPlanDto> {
    const { created, plan } = await this.plans.replace(principal, accountId, planChanges.replace(body));
    res.status(created ? 201 : 200);
    return plan;
  }

  @Patch()
  @ApiOperation({
    operationId: 'updateFinancialPlan',
    summary: 'Change the financial plan',
    description:
      'The fields sent replace the stored ones (`investment_outlook` field by field; `inflation_assumption: null` ' +
      'clears it); goals change through their own routes. An archived plan answers 409. Answers the next version.',
  })
  @ApiOkResponse({ type: FinancialPlanDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002', 'SVC-404-001', 'SVC-409-001')
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Body() body: UpdateFinancialPlanDto,
  ): Promise<FinancialPlanDto> {
    return this.plans.write(principal, accountId, undefined, planChanges.update(body));
  }

  @Post('archive')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'archiveFinancialPlan',
    summary: 'Archive the financial plan',
    description:
      'Sets `status` archived as the next version. An archived plan is read-only (409 on changes) until a PUT ' +
      'replaces it; archiving it again is 409.',
  })
  @ApiOkResponse({ type: FinancialPlanDto })
  @ApiErrors('SVC-404-001', 'SVC-409-001')
  archive(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<FinancialPlanDto> {
    return this.plans.write(principal, accountId, idem, planChanges.archive());
  }
}
