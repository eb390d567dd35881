import Decimal from 'decimal.js';
import { useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { createInvestor } from '../investors/fixtures';
import { depositSettled } from '../support/factories';
import { fundedAccount } from '../wallet/support/wallet';
import {
  freezeClock,
  futureValue,
  monthsAfter,
  monthsToReach,
  planClient,
  planPath,
  retirementGoal,
} from './support/plans';

describe('Wealth: the financial plan and its projections', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  beforeAll(() => freezeClock(ctx, tenant.test, `${TODAY}T12:00:00.000Z`));

  it('answers a plan with two goals and their projections, checked against closed-form annuity values', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    const path = planPath(investor.account_id as string);
    expectSvcError(await client().get(path), 'SVC-404-001');

    const created = await client().put(path, {
      goals: [retirementGoal(), homeGoal],
      income: { total_monthly_income: '6500.00', sources: [{ name: 'Salary', monthly_amount: '6500.00' }] },
      expenses: { total_monthly_expenses: '4100.00' },
      investment_outlook: { expected_return_rate: '0.06', risk_capacity: 'high' },
    });
    expect(created.status).toBe(201);
    const i = new Decimal('0.06').div(12);
    const retirementMonths = monthsToReach('10000', '500', '100000', i);
    const homeMonths = monthsToReach('5000', '400', '60000', i);
    expect(retirementMonths).toBe(120);
    expect(created.body).toEqual({
      financial_plan_id: expect.stringMatching(/^fp_[A-Za-z0-9_-]{22}$/),
      account_id: investor.account_id,
      version: 1,
      goals: [
        {
          goal_id: expect.stringMatching(/^goal_[A-Za-z0-9_-]{22}$/),
          name: 'Retirement',
          goal_type: 'retirement',
          target_amount: '100000.00',
          target_date: '2059-01-31',
          current_amount: '10000.00',
          progress_percent: '10.00',
          amount_remaining: '90000.00',
          monthly_contribution: '500.00',
          projected_completion_date: monthsAfter(TODAY, retirementMonths),
          on_track: true,
          linked_to_account: false,
          status: 'active',
        },
        {
          goal_id: expect.stringMatching(/^goal_/),
          name: 'First home',
          goal_type: 'home_purchase',
          target_amount: '60000.00',
          target_date: '2054-01-31',
          current_amount: '5000.00',
          progress_percent: '8.33',
          amount_remaining: '55000.00',
          monthly_contribution: '400.00',
          projected_completion_date: monthsAfter(TODAY, homeMonths),
          on_track: false,
          linked_to_account: false,
          status: 'active',
        },
      ],
      life_events: [],
      external_accounts: [],
      income: { total_monthly_income: '6500.00', sources: [{ name: 'Salary', monthly_amount: '6500.00' }] },
      expenses: { total_monthly_expenses: '4100.00', categories: [] },
      investment_outlook: { expected_return_rate: '0.06', inflation_assumption: null, risk_capacity: 'high' },
      status: 'active',
      created_at: `${TODAY}T12:00:00.000Z`,
      updated_at: `${TODAY}T12:00:00.000Z`,
    });
    expect(monthsAfter(TODAY, homeMonths) > '2054-01-31').toBe(true);

    const plain = await client().get(path);
    expect(plain.body).toEqual(created.body);
    const projected = await client().get(`${path}?include_projections=true`);
    expect(projected.status).toBe(200);
    const [retirement, home] = projected.body.goals;
    expect(retirement.projection.monthly_rate).toBe('0.005');
    expect(retirement.projection.monthly_path).toHaveLength(120);
    expect(home.projection.monthly_path).toHaveLength(60);
    for (const n of [1, 12, 59, 60, 119, 120]) {
      expect(retirement.projection.monthly_path[n - 1]).toEqual({
        month: n,
        date: monthsAfter(TODAY, n),
        projected_amount: futureValue('10000', '500', i, n).toFixed(2),
      });
    }
    expect(retirement.projection.monthly_path[119].projected_amount).toBe('100133.64');
    expect(home.projection.monthly_path[59].projected_amount).toBe(
      futureValue('5000', '400', i, 60).toFixed(2),
    );
    for (const goal of [retirement, home]) {
      const { range } = goal.projection;
      expect(range).toEqual({
        seed: expect.stringMatching(/^[0-9a-f]{16}$/),
        paths: 500,
        volatility: '0.20',
        p10: expect.stringMatching(/^\d+\.\d{2}$/),
        p50: expect.stringMatching(/^\d+\.\d{2}$/),
        p90: expect.stringMatching(/^\d+\.\d{2}$/),
      });
      expect(Number(range.p10) < Number(range.p50) && Number(range.p50) < Number(range.p90)).toBe(true);
    }
    // Seeded: the same version answers the same range.
    expect((await client().get(`${path}?include_projections=true`)).body).toEqual(projected.body);

    // In today's money with inflation π: the real monthly rate (1 + r/12) / (1 + π/12) − 1.
    const real = await client().patch(path, { investment_outlook: { inflation_assumption: '0.024' } });
    expect(real.body.version).toBe(2);
    expect(real.body.investment_outlook).toEqual({
      expected_return_rate: '0.06',
      inflation_assumption: '0.024',
      risk_capacity: 'high',
    });
    const j = new Decimal('1.005').div('1.002').minus(1);
    const withInflation = await client().get(`${path}?include_projections=true`);
    expect(withInflation.body.goals[0].projection.monthly_path[119].projected_amount).toBe(
      futureValue('10000', '500', j, 120).toFixed(2),
    );
    expect(withInflation.body.goals[0].projected_completion_date).toBe(
      monthsAfter(TODAY, monthsToReach('10000', '500', '100000', j)),
    );
    expect(withInflation.body.goals[0].on_track).toBe(false);
  });

  it('keeps every version: writes count up and ?version=N answers the snapshot', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    const path = planPath(investor.account_id as string);
    const v1 = await client().put(path, { goals: [retirementGoal()] });
    const v2 = await client().patch(path, {
      life_events: [{ name: 'Sabbatical', date: '2052-06-01', amount: '15000' }],
    });
    expect(v2.body.life_events).toEqual([{ name: 'Sabbatical', date: '2052-06-01', amount: '15000.00' }]);
    const v3 = await client().post(`${path}/goals`, { ...homeGoal, status: 'active' });
    expect(v3.status).toBe(201);
    const home = v3.body.goals[1];
    const v4 = await client().patch(`${path}/goals/${home.goal_id}`, {
      monthly_contribution: '900.00',
      name: 'Flat',
    });
    expect(v4.body.goals[1]).toMatchObject({
      goal_id: home.goal_id,
      name: 'Flat',
      monthly_contribution: '900.00',
    });
    const v5 = await client().delete(`${path}/goals/${v1.body.goals[0].goal_id}`);
    expect(v5.body.goals.map((g: { goal_id: string }) => g.goal_id)).toEqual([home.goal_id]);
    const v6 = await client().post(`${path}/archive`);
    expect(v6.status).toBe(200);
    expect(v6.body.status).toBe('archived');

    const written = [v1, v2, v3, v4, v5, v6].map((r) => r.body);
    expect(written.map((p) => p.version)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const plan of written) {
      expect((await client().get(`${path}?version=${plan.version}`)).body).toEqual(plan);
    }
    expect((await client().get(path)).body).toEqual(v6.body);

    // Archived: read-only until a PUT starts again (same plan id, next version, active).
    expectSvcError(
      await client().patch(path, { expenses: { total_monthly_expenses: '1.00' } }),
      'SVC-409-001',
    );
    expectSvcError(await client().post(`${path}/goals`, homeGoal), 'SVC-409-001');
    expectSvcError(await client().post(`${path}/archive`), 'SVC-409-001');
    const v7 = await client().put(path, {
      goals: [{ ...v4.body.goals[1], goal_id: home.goal_id }].map(inputOf),
    });
    expect(v7.status).toBe(200);
    expect(v7.body).toMatchObject({
      financial_plan_id: v1.body.financial_plan_id,
      version: 7,
      status: 'active',
      created_at: v1.body.created_at,
    });
    expect(v7.body.goals[0].goal_id).toBe(home.goal_id);
    expect(v7.body.life_events).toEqual([]);

    expectSvcError(await client().get(`${path}?version=8`), 'SVC-404-001');
    expectSvcError(await client().get(`${path}?version=0`), 'SVC-400-001', { param: 'version' });
    expectSvcError(await client().patch(`${path}/goals/goal_unknown`, { name: 'x' }), 'SVC-404-001');
    expectSvcError(await client().delete(`${path}/goals/goal_unknown`), 'SVC-404-001');
  });

  it('follows the account\u2019s equity in a goal linked to the account', async () => {
    const { investor, bank } = await fundedAccount(ctx, tenant.test, '2500.00');
    const path = planPath(investor.account_id);
    const res = await client().put(path, {
      goals: [
        {
          ...retirementGoal({ current_amount: undefined }),
          linked_to_account: true,
          target_amount: '10000.00',
        },
      ],
    });
    expect(res.body.goals[0]).toMatchObject({
      current_amount: '2500.00',
      progress_percent: '25.00',
      amount_remaining: '7500.00',
      linked_to_account: true,
    });
    await depositSettled(ctx, tenant.test, investor.account_id, bank, '1250.00');
    expect((await client().get(path)).body.goals[0]).toMatchObject({
      current_amount: '3750.00',
      progress_percent: '37.50',
      amount_remaining: '6250.00',
    });
    // Unlinking keeps the goal; its current_amount is then the partner's (0 unless given).
    const unlinked = await client().patch(`${path}/goals/${res.body.goals[0].goal_id}`, {
      linked_to_account: false,
      current_amount: '100.00',
    });
    expect(unlinked.body.goals[0]).toMatchObject({ current_amount: '100.00', progress_percent: '1.00' });
  });

  const TODAY = '2049-01-31';
  const client = () => planClient(ctx, tenant.test);
  const homeGoal = {
    name: 'First home',
    goal_type: 'home_purchase',
    target_amount: '60000.00',
    target_date: '2054-01-31',
    current_amount: '5000.00',
    monthly_contribution: '400.00',
  };
});

/** A goal as the API answered it, back into PUT input form. */
function inputOf(goal: Record<string, unknown>): Record<string, unknown> {
  const {
    goal_id,
    name,
    goal_type,
    target_amount,
    target_date,
    current_amount,
    monthly_contribution,
    status,
  } = goal;
  return {
    goal_id,
    name,
    goal_type,
    target_amount,
    target_date,
    current_amount,
    monthly_contribution,
    status,
  };
}
