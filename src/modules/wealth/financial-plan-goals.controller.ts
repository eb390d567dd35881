import { Body, Controller, Delete, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { GoalInputDto, UpdateGoalDto } from 'src/modules/wealth/dto/financial-plan-input.dto';
import { FinancialPlanDto } from 'src/modules/wealth/dto/financial-plan.dto';
import { ACCOUNT_ID, FIGURES } from 'src/modules/wealth/financial-plan.controller';
import { FinancialPlanService } from 'src/modules/wealth/financial-plan.service';
import { planChanges } from 'src/modules/wealth/plan-changes';

const GOAL_ID = ApiParam({ name: 'goal_id', example: 'goal_5TqVn2Lm9XbPa7Rz0cWd3k' });

/** Goals of a plan, each write answering the plan at its next version. */
@ApiTags('Wealth')
@Controller('wealth/accounts/:account_id/financial-plan/goals')
@ACCOUNT_ID
export class FinancialPlanGoalsController {
  constructor(private readonly plans: FinancialPlanService) {}

  @Post()
  @ApiOperation({
    operationId: 'addFinancialPlanGoal',
    summary: 'Add a goal to the financial plan',
    description:
      `Answers the plan with the new goal last (its \`goal_id\` is new). At most 20 goals (409 beyond); an archived ` +
      `plan answers 409. ${FIGURES}`,
  })
  @ApiCreatedResponse({ type: FinancialPlanDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002', 'SVC-404-001', 'SVC-409-001')
  add(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Body() body: GoalInputDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<FinancialPlanDto> {
    return this.plans.write(principal, accountId, idem, planChanges.addGoal(body));
  }

  @Patch(':goal_id')
  @GOAL_ID
  @ApiOperation({
    operationId: 'updateFinancialPlanGoal',
    summary: 'Change a goal',
    description:
      'The fields sent replace the goal\u2019s; answers the plan at its next version. Unknown goal: 404.',
  })
  @ApiOkResponse({ type: FinancialPlanDto })
  @ApiErrors('SVC-400-001', 'SVC-404-001', 'SVC-409-001')
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Param('goal_id') goalId: string,
    @Body() body: UpdateGoalDto,
  ): Promise<FinancialPlanDto> {
    return this.plans.write(principal, accountId, undefined, planChanges.updateGoal(goalId, body));
  }

  @Delete(':goal_id')
  @GOAL_ID
  @ApiOperation({
    operationId: 'removeFinancialPlanGoal',
    summary: 'Remove a goal',
    description:
      'Answers the plan without the goal at its next version (earlier versions keep it). Unknown goal: 404.',
  })
  @ApiOkResponse({ type: FinancialPlanDto })
  @ApiErrors('SVC-404-001', 'SVC-409-001')
  remove(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Param('goal_id') goalId: string,
  ): Promise<FinancialPlanDto> {
    return this.plans.write(principal, accountId, undefined, planChanges.removeGoal(goalId));
  }
}
