import { AccountsService } from 'src/modules/accounts/accounts.service';
import type { Principal } from 'src/core/auth/principal';
import { ServiceError } from 'src/core/errors/service-error';
import { createTestContext, itLocal, TestContext, TestCredentials, TestTenant } from '../support/app';
import { expectSvcError } from '../support/errors';
import { createInvestor, eventsOf, investorKey, useTempStorage } from './fixtures';

describe('Investment accounts', () => {
  useTempStorage();
  let ctx: TestContext;
  let tenant: TestTenant;

  beforeAll(async () => {
    ctx = await createTestContext();
    tenant = await ctx.createTenant();
  });

  afterAll(() => ctx?.close());

  it('GET /v1/accounts is a bare array of account-style records exactly as the spec table', async () => {
    const own = await ctx.createTenant();
    const first = await createInvestor(ctx, own.test, {
      agreements: [
        {
          agreement: 'customer_agreement',
          revision: '2025-06',
          ip_address: '203.0.113.7',
          signed_at: '2025-11-02T08:00:00Z',
        },
      ],
    });
    const second = await createInvestor(ctx, own.test);
    const res = await ctx.as(own.test).get('/v1/accounts');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((a: { id: string }) => a.id)).toEqual([second.account_id, first.account_id]);
    const account = res.body[1];
    expect(Object.keys(account)).toEqual(ACCOUNT_KEYS);
    expect(account).toEqual({
      id: first.account_id,
      account_number: first.account_number,
      status: 'SUBMITTED',
      crypto_status: 'INACTIVE',
      currency: 'USD',
      last_equity: '0.00',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      contact: {
        email_address: first.contact.email_address,
        phone_number: '+14155550123',
        street_address: ['20 N San Mateo Dr', 'Apt 4'],
        local_street_address: null,
        city: 'San Mateo',
        state: 'CA',
        postal_code: '94401',
        country: 'USA',
      },
      identity: {
        first_name: 'Ada',
        last_name: 'Obi',
        date_of_birth: '1990-04-12',
        country_of_citizenship: 'USA',
        country_of_birth: 'NGA',
        party_type: 'natural_person',
        tax_id_type: 'USA_SSN',
        country_of_tax_residence: 'USA',
        funding_source: ['employment_income'],
      },
      disclosures: {
        is_control_person: false,
        is_affiliated_exchange_or_finra: false,
        is_affiliated_exchange_or_iiroc: null,
        is_politically_exposed: false,
        immediate_family_exposed: false,
        is_discretionary: null,
      },
      agreements: [
        {
          agreement: 'customer_agreement',
          signed_at: '2025-11-02T08:00:00.000Z',
          ip_address: '203.0.113.7',
          revision: '2025-06',
          account_id: first.account_id,
        },
      ],
      account_type: 'trading',
      trading_type: 'cash',
      trading_configurations: null,
      enabled_assets: ['us_equity', 'etf'],
    });
    expect(JSON.stringify(res.body)).not.toContain('6789');
    expect((await ctx.as(own.test).get(`/v1/accounts/${first.account_id}`)).body).toEqual(account);
  });

  it('an investor key sees only its own account; other ids answer 404', async () => {
    const mine = await createInvestor(ctx, tenant.test);
    const other = await createInvestor(ctx, tenant.test);
    const key = await investorKey(ctx, tenant.test, mine.id);
    const list = await ctx.as(key).get('/v1/accounts');
    expect(list.body.map((a: { id: string }) => a.id)).toEqual([mine.account_id]);
    expect((await ctx.as(key).get(`/v1/accounts/${mine.account_id}`)).status).toBe(200);
    expectSvcError(await ctx.as(key).get(`/v1/accounts/${other.account_id}`), 'SVC-404-001');
    expectSvcError(await action(key, mine.account_id, 'close'), 'SVC-403-001');
  });

  it('unknown or malformed account ids answer 404, as do accounts of the other mode', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    expectSvcError(
      await ctx.as(tenant.test).get('/v1/accounts/00000000-0000-4000-8000-000000000000'),
      'SVC-404-001',
    );
    expectSvcError(await ctx.as(tenant.test).get('/v1/accounts/not-a-uuid'), 'SVC-404-001', {
      message: "No such account: 'not-a-uuid'.",
    });
    expectSvcError(await ctx.as(tenant.live).get(`/v1/accounts/${investor.account_id}`), 'SVC-404-001');
    const live = await ctx.as(tenant.live).get('/v1/accounts');
    expect(live.body.map((a: { id: string }) => a.id)).not.toContain(investor.account_id);
  });

  it('suspend, reactivate and close follow the lifecycle; illegal moves answer 409 SVC-409-001', async () => {
    const own = await ctx.createTenant();
    const investor = await createInvestor(ctx, own.test, {
      agreements: [{ agreement: 'crypto_agreement', revision: '2025-03', ip_address: '203.0.113.7' }],
      enabled_assets: ['us_equity', 'crypto'],
    });
    const id = investor.account_id;
    expectSvcError(await action(own.test, id, 'suspend'), 'SVC-409-001', {
      message: 'Cannot suspend an account in status SUBMITTED; allowed from ACTIVE.',
    });
    expectSvcError(await action(own.test, id, 'reactivate'), 'SVC-409-001');
    await ctx.as(own.test).post(`/v1/test_helpers/investors/${investor.id}/kyc/approve`);
    expect((await ctx.as(own.test).get(`/v1/accounts/${id}`)).body).toMatchObject({
      status: 'ACTIVE',
      crypto_status: 'ACTIVE',
    });

    const suspended = await action(own.test, id, 'suspend');
    expect(suspended.status).toBe(200);
    expect(suspended.body).toMatchObject({ id, status: 'SUSPENDED', crypto_status: 'SUSPENDED' });
    expect(Object.keys(suspended.body)).toEqual(ACCOUNT_KEYS);
    expectSvcError(await action(own.test, id, 'suspend'), 'SVC-409-001');
    expect((await ctx.as(own.test).get(`/v1/investors/${investor.id}`)).body.status).toBe('suspended');
    expect((await action(own.test, id, 'reactivate')).body).toMatchObject({
      status: 'ACTIVE',
      crypto_status: 'ACTIVE',
    });
    expect((await action(own.test, id, 'close')).body).toMatchObject({
      status: 'CLOSED',
      crypto_status: 'INACTIVE',
    });
    for (const name of ['close', 'suspend', 'reactivate']) {
      expectSvcError(await action(own.test, id, name), 'SVC-409-001');
    }
    expectSvcError(
      await ctx.as(own.test).post(`/v1/test_helpers/investors/${investor.id}/kyc/approve`),
      'SVC-409-001',
    );

    // Each move is one account.updated event; moves made in one transaction may share a timestamp.
    const moves = (await eventsOf(ctx, own))
      .filter((e) => e.event === 'account.updated' && e.data.previous_status)
      .map((e) => `${e.data.previous_status}->${e.data.status}`);
    expect(moves.sort()).toEqual(
      [
        'SUBMITTED->PENDING_APPROVAL',
        'PENDING_APPROVAL->ACTIVE',
        'ACTIVE->SUSPENDED',
        'SUSPENDED->ACTIVE',
        'ACTIVE->CLOSED',
      ].sort(),
    );
  });

  it('a pending application can be closed; unknown accounts 404 on actions; live keys too', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    expect((await action(tenant.test, investor.account_id, 'close')).body.status).toBe('CLOSED');
    expectSvcError(await action(tenant.test, '00000000-0000-4000-8000-000000000000', 'close'), 'SVC-404-001');
    expectSvcError(await action(tenant.live, investor.account_id, 'close'), 'SVC-404-001');
  });

  itLocal(
    'requireActiveAccount lets only ACTIVE accounts through, for trading and money movement',
    async () => {
      const accounts = ctx.app!.get(AccountsService);
      const investor = await createInvestor(ctx, tenant.test);
      const principal: Principal = {
        tenantId: tenant.tenantId,
        livemode: false,
        keyId: tenant.test.id,
        investorId: null,
        products: new Set(),
        fixedIncomeEnabled: false,
        method: 'basic',
      };
      const refusal = async (fn: () => Promise<unknown>) => {
        try {
          await fn();
        } catch (err) {
          return err as ServiceError;
        }
        throw new Error('expected a refusal');
      };
      const submitted = await refusal(() => accounts.requireActiveAccount(principal, investor.account_id));
      expect([submitted.code, submitted.param, submitted.message]).toEqual([
        'SVC-422-001',
        'account_id',
        `Account ${investor.account_id} is SUBMITTED; only ACTIVE accounts may trade or move money.`,
      ]);
      const byInvestor = await refusal(() => accounts.requireActiveInvestorAccount(principal, investor.id));
      expect([byInvestor.code, byInvestor.param]).toEqual(['SVC-422-001', 'investor_id']);

      await ctx.as(tenant.test).post(`/v1/test_helpers/investors/${investor.id}/kyc/approve`);
      expect((await accounts.requireActiveAccount(principal, investor.account_id)).status).toBe('ACTIVE');
      expect((await accounts.requireActiveInvestorAccount(principal, investor.id)).id).toBe(
        investor.account_id,
      );

      const otherMode = await refusal(() =>
        accounts.requireActiveAccount({ ...principal, livemode: true }, investor.account_id),
      );
      expect(otherMode.code).toBe('SVC-404-001');
      const otherInvestor = await refusal(() =>
        accounts.requireActiveAccount(
          { ...principal, investorId: 'inv_AAAAAAAAAAAAAAAAAAAAAA' },
          investor.account_id,
        ),
      );
      expect(otherInvestor.code).toBe('SVC-404-001');

      await action(tenant.test, investor.account_id, 'suspend');
      expect(
        (await refusal(() => accounts.requireActiveAccount(principal, investor.account_id))).message,
      ).toContain('SUSPENDED');
    },
  );

  const action = (creds: TestCredentials, accountId: string, name: string) =>
    ctx.as(creds).post(`/v1/accounts/${accountId}/actions/${name}`);
});

const ACCOUNT_KEYS = [
  'id',
  'account_number',
  'status',
  'crypto_status',
  'currency',
  'last_equity',
  'created_at',
  'contact',
  'identity',
  'disclosures',
  'agreements',
  'account_type',
  'trading_type',
  'trading_configurations',
  'enabled_assets',
];
