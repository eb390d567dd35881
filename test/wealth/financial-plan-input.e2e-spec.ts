import { useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { createInvestor, investorKey } from '../investors/fixtures';
import { freezeClock, planClient, planPath, retirementGoal } from './support/plans';

describe('Wealth: bad input, scope and concurrent writes', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  const other = useTenant(ctx);
  beforeAll(() => freezeClock(ctx, tenant.test, '2049-01-31T12:00:00.000Z'));

  const client = () => planClient(ctx, tenant.test);

  it('answers 400 naming the field for every bad value, and stores nothing', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    const path = planPath(investor.account_id as string);
    const goal = (overrides: Record<string, unknown>) => ({
      goals: [retirementGoal(), retirementGoal(overrides)],
    });
    const cases: Array<[unknown, string, 'SVC-400-001' | 'SVC-400-002']> = [
      [goal({ target_amount: '12.345' }), 'goals[1].target_amount', 'SVC-400-001'],
      [goal({ target_amount: '0' }), 'goals[1].target_amount', 'SVC-400-001'],
      [goal({ target_amount: '-5.00' }), 'goals[1].target_amount', 'SVC-400-001'],
      [goal({ target_amount: 100 }), 'goals[1].target_amount', 'SVC-400-001'],
      [goal({ target_amount: '1e5' }), 'goals[1].target_amount', 'SVC-400-001'],
      [goal({ target_amount: undefined }), 'goals[1].target_amount', 'SVC-400-002'],
      [goal({ monthly_contribution: '10.001' }), 'goals[1].monthly_contribution', 'SVC-400-001'],
      [goal({ current_amount: 'NaN' }), 'goals[1].current_amount', 'SVC-400-001'],
      [goal({ target_date: '2030-02-30' }), 'goals[1].target_date', 'SVC-400-001'],
      [goal({ target_date: '2049-01-31' }), 'goals[1].target_date', 'SVC-400-001'],
      [goal({ target_date: '2127-02-01' }), 'goals[1].target_date', 'SVC-400-001'],
      [goal({ target_date: '31/01/2030' }), 'goals[1].target_date', 'SVC-400-001'],
      [goal({ goal_type: 'yacht' }), 'goals[1].goal_type', 'SVC-400-001'],
      [goal({ status: 'done' }), 'goals[1].status', 'SVC-400-001'],
      [goal({ name: '   ' }), 'goals[1].name', 'SVC-400-001'],
      [goal({ linked_to_account: true }), 'goals[1].current_amount', 'SVC-400-001'],
      [goal({ goal_id: 'goal_notInThisPlan' }), 'goals[1].goal_id', 'SVC-400-001'],
      [goal({ colour: 'red' }), 'goals[1].colour', 'SVC-400-001'],
      [{ goals: Array.from({ length: 21 }, () => retirementGoal()) }, 'goals', 'SVC-400-001'],
      [
        { investment_outlook: { expected_return_rate: '2' } },
        'investment_outlook.expected_return_rate',
        'SVC-400-001',
      ],
      [
        { investment_outlook: { expected_return_rate: '6%' } },
        'investment_outlook.expected_return_rate',
        'SVC-400-001',
      ],
      [
        { investment_outlook: { inflation_assumption: '0.9' } },
        'investment_outlook.inflation_assumption',
        'SVC-400-001',
      ],
      [
        { investment_outlook: { risk_capacity: 'extreme' } },
        'investment_outlook.risk_capacity',
        'SVC-400-001',
      ],
      [{ income: { total_monthly_income: '1.234' } }, 'income.total_monthly_income', 'SVC-400-001'],
      [{ income: { sources: [] } }, 'income.total_monthly_income', 'SVC-400-002'],
      [
        { expenses: { total_monthly_expenses: '1', categories: [{ name: 'Rent', monthly_amount: 'x' }] } },
        'expenses.categories[0].monthly_amount',
        'SVC-400-001',
      ],
      [
        { external_accounts: [{ name: 'Car', type: 'vehicle', balance: '1' }] },
        'external_accounts[0].type',
        'SVC-400-001',
      ],
      [{ life_events: [{ name: 'Wedding', date: '2029-13-01' }] }, 'life_events[0].date', 'SVC-400-001'],
      [{ goals: {} }, 'goals', 'SVC-400-001'],
    ];
    for (const [body, param, code] of cases) {
      const res = await client().put(path, body);
      expect([param, res.status]).toEqual([param, 400]);
      expectSvcError(res, code, { param });
    }
    expectSvcError(await client().get(path), 'SVC-404-001');

    await client().put(path, { goals: [retirementGoal()] });
    expectSvcError(await client().patch(path, { goals: [] }), 'SVC-400-001', { param: 'goals' });
    expectSvcError(
      await client().post(`${path}/goals`, retirementGoal({ target_amount: '1.001' })),
      'SVC-400-001',
      {
        param: 'target_amount',
      },
    );
    expectSvcError(await client().post(`${path}/goals`, { name: 'x' }), 'SVC-400-002', {
      param: 'goal_type',
    });
    const goalId = (await client().get(path)).body.goals[0].goal_id as string;
    expectSvcError(
      await client().patch(`${path}/goals/${goalId}`, { target_date: '2020-01-01' }),
      'SVC-400-001',
      {
        param: 'target_date',
      },
    );
    expectSvcError(
      await client().patch(`${path}/goals/${goalId}`, { linked_to_account: true, current_amount: '1' }),
      'SVC-400-001',
      {
        param: 'current_amount',
      },
    );
    // null in an optional field counts as not sent: nothing changes, and nothing fails.
    const nulls = await client().patch(`${path}/goals/${goalId}`, {
      name: null,
      goal_type: null,
      target_amount: null,
      target_date: null,
      current_amount: null,
      monthly_contribution: null,
      linked_to_account: null,
      status: null,
    });
    expect(nulls.status).toBe(200);
    expect(nulls.body.goals[0]).toMatchObject({ ...retirementGoal(), goal_id: goalId });
    const outlook = await client().patch(path, {
      investment_outlook: { expected_return_rate: null, risk_capacity: null },
      life_events: null,
      income: null,
    });
    expect(outlook.status).toBe(200);
    expect(outlook.body.investment_outlook).toEqual({
      expected_return_rate: '0.05',
      inflation_assumption: null,
      risk_capacity: 'medium',
    });
    expectSvcError(await client().get(`${path}?include_projections=yes`), 'SVC-400-001', {
      param: 'include_projections',
    });
    expectSvcError(await client().get(`${path}?version=two`), 'SVC-400-001', { param: 'version' });
    expect((await client().get(path)).body.version).toBe(3);
  });

  it('holds at most 20 goals', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    const path = planPath(investor.account_id as string);
    await client().put(path, {
      goals: Array.from({ length: 20 }, (_, i) => retirementGoal({ name: `Goal ${i}` })),
    });
    expectSvcError(await client().post(`${path}/goals`, retirementGoal()), 'SVC-409-001');
  });

  it('lets an investor key reach its own plan only; other investors, tenants and modes answer 404', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    const neighbour = await createInvestor(ctx, tenant.test);
    const stranger = await createInvestor(ctx, other.test);
    const live = await createInvestor(ctx, tenant.live);
    const own = planPath(investor.account_id as string);
    const key = await investorKey(ctx, tenant.test, investor.id as string);
    const asInvestor = planClient(ctx, key);

    expect((await asInvestor.put(own, { goals: [retirementGoal()] })).status).toBe(201);
    const goalId = (await asInvestor.get(own)).body.goals[0].goal_id as string;
    expect((await asInvestor.post(`${own}/goals`, retirementGoal())).status).toBe(201);
    expect((await asInvestor.patch(`${own}/goals/${goalId}`, { name: 'Mine' })).status).toBe(200);
    expect((await client().get(own)).body.goals[0].name).toBe('Mine');

    await client().put(planPath(neighbour.account_id as string), { goals: [] });
    await planClient(ctx, other.test).put(planPath(stranger.account_id as string), { goals: [] });
    await planClient(ctx, tenant.live).put(planPath(live.account_id as string), { goals: [] });
    const unreachable: Array<[ReturnType<typeof planClient>, string]> = [
      [asInvestor, planPath(neighbour.account_id as string)],
      [client(), planPath(stranger.account_id as string)],
      [client(), planPath(live.account_id as string)],
      [planClient(ctx, other.test), own],
      [planClient(ctx, tenant.live), own],
    ];
    for (const [who, path] of unreachable) {
      expectSvcError(await who.get(path), 'SVC-404-001');
      expectSvcError(await who.put(path, { goals: [] }), 'SVC-404-001');
      expectSvcError(await who.patch(path, { expenses: { total_monthly_expenses: '1' } }), 'SVC-404-001');
      expectSvcError(await who.post(`${path}/goals`, retirementGoal()), 'SVC-404-001');
      expectSvcError(await who.patch(`${path}/goals/${goalId}`, { name: 'x' }), 'SVC-404-001');
      expectSvcError(await who.delete(`${path}/goals/${goalId}`), 'SVC-404-001');
      expectSvcError(await who.post(`${path}/archive`), 'SVC-404-001');
    }
    expectSvcError(await client().get(planPath('not-a-uuid')), 'SVC-404-001');
    expect((await client().get(own)).body.version).toBe(3);
  });

  it('gives 50 concurrent writes 50 distinct versions, and 50 concurrent first PUTs one plan', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    const path = planPath(investor.account_id as string);
    const puts = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        client().put(path, { income: { total_monthly_income: `${i + 1}.00` } }),
      ),
    );
    expect(puts.filter((r) => r.status === 201)).toHaveLength(1);
    expect(puts.filter((r) => r.status === 200)).toHaveLength(49);
    expect(new Set(puts.map((r) => r.body.financial_plan_id)).size).toBe(1);
    expect(puts.map((r) => r.body.version as number).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    expect(puts.find((r) => r.status === 201)!.body.version).toBe(1);

    const patches = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        client().patch(path, { expenses: { total_monthly_expenses: `${i + 1}.00` } }),
      ),
    );
    expect(patches.every((r) => r.status === 200)).toBe(true);
    const versions = patches.map((r) => r.body.version as number).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: 50 }, (_, i) => i + 51));
    const last = patches.find((r) => r.body.version === 100)!;
    expect((await client().get(path)).body).toEqual(last.body);
    for (const r of patches.slice(0, 5)) {
      expect((await client().get(`${path}?version=${r.body.version}`)).body).toEqual(r.body);
    }
  });
});
