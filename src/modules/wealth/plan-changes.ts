import { ServiceError } from 'src/core/errors/service-error';
import type {
  FinancialPlanInputDto,
  GoalInputDto,
  UpdateFinancialPlanDto,
  UpdateGoalDto,
} from 'src/modules/wealth/dto/financial-plan-input.dto';
import { MAX_GOALS } from 'src/modules/wealth/dto/financial-plan-input.dto';
import type { PlanChange } from 'src/modules/wealth/financial-plan.service';
import type { StoredGoal } from 'src/modules/wealth/plan-document';

/** The changes each write route makes, as functions of the current version. */
export const planChanges = {
  replace:
    (body: FinancialPlanInputDto): PlanChange =>
    (current, rules) => ({ status: 'active', document: rules.plan(body, current?.document ?? null) }),

  update:
    (body: UpdateFinancialPlanDto): PlanChange =>
    (current, rules) => ({ status: 'active', document: rules.update(body, current!.document) }),

  archive: (): PlanChange => (current) => ({ status: 'archived', document: current!.document }),

  addGoal:
    (body: GoalInputDto): PlanChange =>
    (current, rules) => {
      const goals = current!.document.goals;
      if (goals.length >= MAX_GOALS) {
        throw ServiceError.conflict(`A financial plan holds at most ${MAX_GOALS} goals; remove one first.`);
      }
      return {
        status: 'active',
        document: { ...current!.document, goals: [...goals, rules.goal(body, '')] },
      };
    },

  updateGoal:
    (goalId: string, body: UpdateGoalDto): PlanChange =>
    (current, rules) => {
      const goals = current!.document.goals;
      const index = indexOfGoal(goals, goalId);
      const changed = rules.goal(body, '', goalId, goals[index]);
      return {
        status: 'active',
        document: { ...current!.document, goals: goals.map((g, i) => (i === index ? changed : g)) },
      };
    },

  removeGoal:
    (goalId: string): PlanChange =>
    (current) => {
      const goals = current!.document.goals;
      const index = indexOfGoal(goals, goalId);
      return {
        status: 'active',
        document: { ...current!.document, goals: goals.filter((_, i) => i !== index) },
      };
    },
};

function indexOfGoal(goals: StoredGoal[], goalId: string): number {
  const index = goals.findIndex((g) => g.goal_id === goalId);
  if (index < 0) {
    throw ServiceError.notFound('goal', goalId);
  }
  return index;
}
