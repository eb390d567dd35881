import type { PlanDocument, StoredGoal } from 'src/modules/wealth/plan-document';
import { financialPlanView, PlanVersion } from 'src/modules/wealth/plan-view';

/**
 * CPU of one financial plan read with include_projections=true (monthly paths and the seeded
 * 500-path range per goal) against the same read without projections (the always-computed figures
 * only), in-process, no server. Two plans: two goals of 10 and 30 years, and the largest a read
 * can meet (20 goals, each 60 years ahead). Rounds alternate so noise hits both alike.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TODAY = '2027-01-31';

function goal(i: number, targetDate: string): StoredGoal {
  return {
    goal_id: `goal_${String(i).padStart(22, '0')}`,
    name: `Goal ${i}`,
    goal_type: 'retirement',
    target_amount: '1000000.00',
    target_date: targetDate,
    current_amount: '25000.00',
    monthly_contribution: '750.00',
    linked_to_account: false,
    status: 'active',
  };
}

function plan(goals: StoredGoal[]): PlanVersion {
  const document: PlanDocument = {
    goals,
    life_events: [],
    external_accounts: [],
    income: { total_monthly_income: '6500.00', sources: [] },
    expenses: { total_monthly_expenses: '4100.00', categories: [] },
    investment_outlook: {
      expected_return_rate: '0.06',
      inflation_assumption: '0.02',
      risk_capacity: 'medium',
    },
  };
  const at = new Date(`${TODAY}T12:00:00Z`);
  return {
    id: 'fp_bench',
    accountId: 'acc',
    version: 1,
    status: 'active',
    document,
    createdAt: at,
    writtenAt: at,
  };
}

function cpuMs(work: () => void, iterations: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < iterations; i += 1) {
    work();
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / iterations;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const cases = [
  {
    name: 'two goals (10 and 30 years)',
    plan: plan([goal(1, '2037-01-31'), goal(2, '2057-01-31')]),
    iterations: 20,
  },
  {
    name: '20 goals, 60 years each',
    plan: plan(Array.from({ length: 20 }, (_, i) => goal(i, '2087-01-31'))),
    iterations: 3,
  },
];

for (const c of cases) {
  const view = (includeProjections: boolean) => () =>
    financialPlanView(c.plan, { today: TODAY, equity: '0', dp: 2, includeProjections });
  const plain: number[] = [];
  const projected: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    plain.push(cpuMs(view(false), c.iterations));
    projected.push(cpuMs(view(true), c.iterations));
  }
  console.log(
    `${c.name}: figures only ${median(plain).toFixed(2)} ms, with projections ${median(projected).toFixed(1)} ms ` +
      `(×${(median(projected) / median(plain)).toFixed(1)}) CPU per read, median of ${ROUNDS} rounds`,
  );
}
