import { createTestContext, TestClient, TestContext, TestTenant } from '../support/app';
import { expectSvcError } from '../support/errors';
import { createInvestor, eventsOf, investorBody, investorKey, useTempStorage } from './fixtures';

describe('Investors', () => {
  useTempStorage();
  let ctx: TestContext;
  let tenant: TestTenant;

  beforeAll(async () => {
    ctx = await createTestContext();
    tenant = await ctx.createTenant();
  });

  afterAll(() => ctx?.close());

  describe('POST /v1/investors', () => {
    it('creates the investor and its SUBMITTED account in one transaction, emitting account.created', async () => {
      const own = await ctx.createTenant();
      const body = investorBody({ identity: { middle_name: 'Chioma' } });
      const res = await ctx.as(own.test).post('/v1/investors', body);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^inv_[A-Za-z0-9_-]{22}$/),
        object: 'investor',
        created: expect.any(Number),
        livemode: false,
        metadata: { partner_user_id: 'u_1029' },
        status: 'submitted',
        account_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        account_number: expect.stringMatching(/^[1-9]\d{9}$/),
        identity: {
          first_name: 'Ada',
          middle_name: 'Chioma',
          last_name: 'Obi',
          date_of_birth: '1990-04-12',
          country_of_citizenship: 'US',
          country_of_birth: 'NG',
          party_type: 'natural_person',
          tax_id_type: 'USA_SSN',
          tax_id: '*****6789',
          country_of_tax_residence: 'US',
          funding_source: ['employment_income'],
        },
        contact: {
          email_address: body.contact.email_address,
          phone_number: '+14155550123',
          address: {
            street: ['20 N San Mateo Dr'],
            unit: 'Apt 4',
            city: 'San Mateo',
            state: 'CA',
            postal_code: '94401',
            country: 'US',
          },
        },
        disclosures: {
          is_control_person: false,
          is_affiliated_exchange_or_finra: false,
          is_affiliated_exchange_or_iiroc: null,
          is_politically_exposed: false,
          immediate_family_exposed: false,
          is_discretionary: null,
        },
        agreements: [],
        currency: 'USD',
        trading_type: 'cash',
        enabled_assets: ['us_equity', 'etf'],
        kyc: { status: 'not_submitted', missing: ['identity_document', 'customer_agreement'] },
      });
      expect(Math.abs(res.body.created - Date.now() / 1000)).toBeLessThan(60);
      expect(JSON.stringify(res.body)).not.toContain('123-45-6789');

      const events = await eventsOf(ctx, own);
      expect(events.map((e) => e.event)).toEqual(['account.created']);
      expect(events[0].livemode).toBe(false);
      expect(events[0].data).toMatchObject({
        id: res.body.account_id,
        investor_id: res.body.id,
        status: 'SUBMITTED',
        kyc_status: 'not_submitted',
        account_number: res.body.account_number,
        identity: { country_of_citizenship: 'USA', country_of_birth: 'NGA' },
      });
      expect(JSON.stringify(events[0].data)).not.toContain('6789');
    });

    it('records agreements given at creation and accepts lower-case countries and other settings', async () => {
      const res = await ctx.as(tenant.test).post(
        '/v1/investors',
        investorBody({
          identity: {
            country_of_citizenship: 'ng',
            country_of_tax_residence: 'ng',
            tax_id_type: 'NGA_NIN',
            tax_id: '12345678901',
          },
          contact: { address: { street: ['12 Broad St'], city: 'Lagos', country: 'ng' } },
          agreements: [
            {
              agreement: 'customer_agreement',
              revision: '2025-06',
              ip_address: '2001:db8::1',
              signed_at: '2025-11-01T10:00:00Z',
            },
            { agreement: 'margin_agreement', revision: '2024-10', ip_address: '203.0.113.9' },
          ],
          trading_type: 'margin',
          currency: 'ngn',
        }),
      );
      expect(res.status).toBe(201);
      expect(res.body.identity).toMatchObject({ country_of_citizenship: 'NG', tax_id: '*****8901' });
      expect(res.body.contact.address).toEqual({
        street: ['12 Broad St'],
        unit: null,
        city: 'Lagos',
        state: null,
        postal_code: null,
        country: 'NG',
      });
      expect(res.body).toMatchObject({ currency: 'NGN', trading_type: 'margin' });
      expect(res.body.agreements).toEqual([
        {
          agreement: 'customer_agreement',
          signed_at: '2025-11-01T10:00:00.000Z',
          ip_address: '2001:db8::1',
          revision: '2025-06',
        },
        {
          agreement: 'margin_agreement',
          signed_at: expect.any(String),
          ip_address: '203.0.113.9',
          revision: '2024-10',
        },
      ]);
      expect(res.body.kyc).toEqual({ status: 'not_submitted', missing: ['identity_document', 'w8ben'] });
    });

    const invalid: Array<[string, Record<string, unknown>, 'SVC-400-001' | 'SVC-400-002', string]> = [
      ['identity missing', { identity: undefined }, 'SVC-400-002', 'identity'],
      ['first name missing', { identity: { first_name: undefined } }, 'SVC-400-002', 'identity.first_name'],
      ['first name with digits', { identity: { first_name: 'Ad4' } }, 'SVC-400-001', 'identity.first_name'],
      [
        'birth date not a date',
        { identity: { date_of_birth: '1990-02-30' } },
        'SVC-400-001',
        'identity.date_of_birth',
      ],
      [
        'birth date in the future',
        { identity: { date_of_birth: '2999-01-01' } },
        'SVC-400-001',
        'identity.date_of_birth',
      ],
      [
        'a minor',
        { identity: { date_of_birth: `${new Date().getUTCFullYear() - 17}-01-01` } },
        'SVC-400-001',
        'identity.date_of_birth',
      ],
      [
        'unknown citizenship country',
        { identity: { country_of_citizenship: 'XX' } },
        'SVC-400-001',
        'identity.country_of_citizenship',
      ],
      [
        'alpha-3 birth country',
        { identity: { country_of_birth: 'NGA' } },
        'SVC-400-001',
        'identity.country_of_birth',
      ],
      [
        'unknown party type',
        { identity: { party_type: 'corporation' } },
        'SVC-400-001',
        'identity.party_type',
      ],
      ['unknown tax id type', { identity: { tax_id_type: 'SSN' } }, 'SVC-400-001', 'identity.tax_id_type'],
      ['SSN badly formed', { identity: { tax_id: '12-345-6789' } }, 'SVC-400-001', 'identity.tax_id'],
      ['SSN never issued', { identity: { tax_id: '000-12-3456' } }, 'SVC-400-001', 'identity.tax_id'],
      ['SSN missing', { identity: { tax_id: undefined } }, 'SVC-400-002', 'identity.tax_id'],
      [
        'tax id of another country',
        { identity: { country_of_tax_residence: 'GB' } },
        'SVC-400-001',
        'identity.tax_id_type',
      ],
      [
        'funding sources empty',
        { identity: { funding_source: [] } },
        'SVC-400-001',
        'identity.funding_source',
      ],
      [
        'funding source unknown',
        { identity: { funding_source: ['savings', 'lottery'] } },
        'SVC-400-001',
        'identity.funding_source[1]',
      ],
      [
        'funding source twice',
        { identity: { funding_source: ['savings', 'savings'] } },
        'SVC-400-001',
        'identity.funding_source[1]',
      ],
      ['e-mail invalid', { contact: { email_address: 'ada@' } }, 'SVC-400-001', 'contact.email_address'],
      [
        'phone not E.164',
        { contact: { phone_number: '415-555-0123' } },
        'SVC-400-001',
        'contact.phone_number',
      ],
      ['address missing', { contact: { address: undefined } }, 'SVC-400-002', 'contact.address'],
      [
        'country missing',
        { contact: { address: { street: ['1 A St'], city: 'X', state: 'CA', postal_code: '94401' } } },
        'SVC-400-002',
        'contact.address.country',
      ],
      [
        'country unknown',
        {
          contact: {
            address: { street: ['1 A St'], city: 'X', state: 'CA', postal_code: '94401', country: 'ZZ' },
          },
        },
        'SVC-400-001',
        'contact.address.country',
      ],
      [
        'street not an array',
        {
          contact: {
            address: { street: '1 A St', city: 'X', state: 'CA', postal_code: '94401', country: 'US' },
          },
        },
        'SVC-400-001',
        'contact.address.street',
      ],
      [
        'street line empty',
        {
          contact: {
            address: { street: ['1 A St', ' '], city: 'X', state: 'CA', postal_code: '94401', country: 'US' },
          },
        },
        'SVC-400-001',
        'contact.address.street[1]',
      ],
      [
        'street line not text',
        {
          contact: { address: { street: [7], city: 'X', state: 'CA', postal_code: '94401', country: 'US' } },
        },
        'SVC-400-001',
        'contact.address.street[0]',
      ],
      [
        'US state missing',
        { contact: { address: { street: ['1 A St'], city: 'X', postal_code: '94401', country: 'US' } } },
        'SVC-400-002',
        'contact.address.state',
      ],
      [
        'US ZIP invalid',
        {
          contact: {
            address: { street: ['1 A St'], city: 'X', state: 'CA', postal_code: '9440', country: 'US' },
          },
        },
        'SVC-400-001',
        'contact.address.postal_code',
      ],
      [
        'disclosure not boolean',
        { disclosures: { is_politically_exposed: 'no' } },
        'SVC-400-001',
        'disclosures.is_politically_exposed',
      ],
      [
        'disclosure missing',
        { disclosures: { is_control_person: undefined } },
        'SVC-400-002',
        'disclosures.is_control_person',
      ],
      ['unknown field', { nickname: 'Ade' }, 'SVC-400-001', 'nickname'],
      ['unknown nested field', { contact: { fax: '+14155550100' } }, 'SVC-400-001', 'contact.fax'],
      [
        'agreement unknown',
        { agreements: [{ agreement: 'tos', revision: '1', ip_address: '203.0.113.7' }] },
        'SVC-400-001',
        'agreements[0].agreement',
      ],
      [
        'agreement stale revision',
        { agreements: [{ agreement: 'customer_agreement', revision: '2020-01', ip_address: '203.0.113.7' }] },
        'SVC-400-001',
        'agreements[0].revision',
      ],
      [
        'agreement bad ip',
        { agreements: [{ agreement: 'customer_agreement', revision: '2025-06', ip_address: '999.1.1.1' }] },
        'SVC-400-001',
        'agreements[0].ip_address',
      ],
      [
        'agreement ip missing',
        { agreements: [{ agreement: 'customer_agreement', revision: '2025-06' }] },
        'SVC-400-002',
        'agreements[0].ip_address',
      ],
      [
        'agreement in the future',
        {
          agreements: [
            {
              agreement: 'customer_agreement',
              revision: '2025-06',
              ip_address: '203.0.113.7',
              signed_at: '2999-01-01T00:00:00Z',
            },
          ],
        },
        'SVC-400-001',
        'agreements[0].signed_at',
      ],
      [
        'enabled asset unknown',
        { enabled_assets: ['us_equity', 'forex'] },
        'SVC-400-001',
        'enabled_assets[1]',
      ],
      ['trading type unknown', { trading_type: 'futures' }, 'SVC-400-001', 'trading_type'],
      ['currency unknown', { currency: 'XYZ' }, 'SVC-400-001', 'currency'],
      ['metadata value not text', { metadata: { n: 1 } }, 'SVC-400-001', 'metadata'],
    ];

    it.each(invalid)('refuses %s, naming the field', async (_name, overrides, code, param) => {
      const body = investorBody(overrides);
      for (const [key, value] of Object.entries(overrides)) {
        if (value === undefined) {
          delete body[key];
        } else if (value && typeof value === 'object' && !Array.isArray(value)) {
          for (const [k, v] of Object.entries(value)) {
            if (v === undefined) {
              delete body[key][k];
            }
          }
        }
      }
      const res = await ctx.as(tenant.test).post('/v1/investors', body);
      expectSvcError(res, code, { param });
    });

    it('refuses margin or crypto without their agreements (422, naming the setting)', async () => {
      expectSvcError(
        await ctx.as(tenant.test).post('/v1/investors', investorBody({ trading_type: 'margin' })),
        'SVC-422-001',
        {
          param: 'trading_type',
          message: /margin_agreement/,
        },
      );
      expectSvcError(
        await ctx
          .as(tenant.test)
          .post('/v1/investors', investorBody({ enabled_assets: ['us_equity', 'crypto'] })),
        'SVC-422-001',
        { param: 'enabled_assets', message: /crypto_agreement/ },
      );
    });

    it('a refused creation leaves no investor, account or event behind', async () => {
      const own = await ctx.createTenant();
      await ctx.as(own.test).post('/v1/investors', investorBody({ trading_type: 'margin' }));
      const investors = await ctx.as(own.test).get('/v1/investors');
      expect(investors.status).toBe(200);
      expect(investors.body.data).toEqual([]);
      expect(await eventsOf(ctx, own)).toEqual([]);
    });
  });

  describe('GET /v1/investors', () => {
    it('lists newest first with cursor pagination and filters by e-mail and status', async () => {
      const own = await ctx.createTenant();
      const created = [];
      for (let i = 0; i < 3; i++) {
        created.push(await createInvestor(ctx, own.test));
      }
      await ctx.as(own.test).post(`/v1/test_helpers/investors/${created[1].id}/kyc/approve`);
      await ctx.as(own.test).post(`/v1/test_helpers/investors/${created[0].id}/kyc/reject`);

      const page1 = await ctx.as(own.test).get('/v1/investors?limit=2');
      expect(page1.status).toBe(200);
      expect(page1.body).toMatchObject({ object: 'list', url: '/v1/investors', has_more: true });
      expect(page1.body.data.map((i: { id: string }) => i.id)).toEqual([created[2].id, created[1].id]);
      const page2 = await ctx.as(own.test).get(`/v1/investors?limit=2&starting_after=${created[1].id}`);
      expect(page2.body).toMatchObject({ has_more: false });
      expect(page2.body.data.map((i: { id: string }) => i.id)).toEqual([created[0].id]);
      const back = await ctx.as(own.test).get(`/v1/investors?ending_before=${created[0].id}`);
      expect(back.body.data.map((i: { id: string }) => i.id)).toEqual([created[2].id, created[1].id]);

      const email = created[2].contact.email_address.toUpperCase();
      const byEmail = await ctx.as(own.test).get(`/v1/investors?email=${encodeURIComponent(email)}`);
      expect(byEmail.body.data.map((i: { id: string }) => i.id)).toEqual([created[2].id]);

      const status = async (s: string) =>
        (await ctx.as(own.test).get(`/v1/investors?status=${s}`)).body.data.map((i: { id: string }) => i.id);
      expect(await status('active')).toEqual([created[1].id]);
      expect(await status('rejected')).toEqual([created[0].id]);
      expect(await status('submitted')).toEqual([created[2].id]);
      expect(await status('closed')).toEqual([]);
      const listed = (await ctx.as(own.test).get(`/v1/investors?status=active`)).body.data[0];
      expect(listed).toEqual((await ctx.as(own.test).get(`/v1/investors/${created[1].id}`)).body);
    });

    it('a filtered list pages in the whole list’s order both ways, investors only', async () => {
      const own = await ctx.createTenant();
      const client = ctx.as(own.test);
      expect((await client.get('/v1/firm-account')).status).toBe(200);
      const created = await Promise.all(Array.from({ length: 7 }, () => createInvestor(ctx, own.test)));
      for (const investor of created.slice(0, 3)) {
        await client.post(`/v1/test_helpers/investors/${investor.id}/kyc/approve`);
      }
      const whole = (await client.get('/v1/investors?limit=100')).body.data as Array<{
        id: string;
        status: string;
      }>;
      for (const status of ['active', 'submitted']) {
        const expected = whole.filter((i) => i.status === status).map((i) => i.id);
        expect(expected).toHaveLength(status === 'active' ? 3 : 4);
        const forward = await walk(client, `status=${status}&limit=2`, 'starting_after');
        expect(forward).toEqual(expected);
        const oldest = expected[expected.length - 1];
        const backward = await walk(
          client,
          `status=${status}&limit=2&ending_before=${oldest}`,
          'ending_before',
        );
        expect(backward).toEqual(expected.slice(0, -1));
      }
      const submitted = whole.find((i) => i.status === 'submitted')!.id;
      expectSvcError(
        await client.get(`/v1/investors?status=active&starting_after=${submitted}`),
        'SVC-400-001',
        {
          param: 'starting_after',
        },
      );
    });

    it('validates its query', async () => {
      expectSvcError(await ctx.as(tenant.test).get('/v1/investors?status=open'), 'SVC-400-001', {
        param: 'status',
      });
      expectSvcError(await ctx.as(tenant.test).get('/v1/investors?limit=101'), 'SVC-400-001', {
        param: 'limit',
      });
      expectSvcError(await ctx.as(tenant.test).get('/v1/investors?starting_after=inv_nope'), 'SVC-400-001', {
        param: 'starting_after',
      });
    });
  });

  describe('GET and update /v1/investors/{investor_id}', () => {
    it('retrieves one; unknown or malformed ids answer 404', async () => {
      const investor = await createInvestor(ctx, tenant.test);
      const res = await ctx.as(tenant.test).get(`/v1/investors/${investor.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(investor);
      expectSvcError(
        await ctx.as(tenant.test).get('/v1/investors/inv_AAAAAAAAAAAAAAAAAAAAAA'),
        'SVC-404-001',
      );
      expectSvcError(await ctx.as(tenant.test).get('/v1/investors/not-an-id'), 'SVC-404-001');
    });

    it('PATCH changes only what is sent, merges metadata, and emits account.updated naming the changes', async () => {
      const own = await ctx.createTenant();
      const investor = await createInvestor(ctx, own.test, { metadata: { a: '1', b: '2' } });
      const res = await ctx.as(own.test).patch(`/v1/investors/${investor.id}`, {
        contact: { phone_number: '+2348030000000' },
        identity: { middle_name: 'Chioma' },
        metadata: { a: '', c: '3' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...investor,
        contact: { ...investor.contact, phone_number: '+2348030000000' },
        identity: { ...investor.identity, middle_name: 'Chioma' },
        metadata: { partner_user_id: 'u_1029', b: '2', c: '3' },
      });
      const updated = (await eventsOf(ctx, own)).filter((e) => e.event === 'account.updated');
      expect(updated).toHaveLength(1);
      expect(updated[0].data).toMatchObject({
        id: investor.account_id,
        investor_id: investor.id,
        changed: ['identity', 'email_address', 'phone_number', 'metadata'].filter(
          (f) => f !== 'email_address',
        ),
        contact: { phone_number: '+2348030000000' },
      });

      const again = await ctx.as(own.test).patch(`/v1/investors/${investor.id}`, {
        contact: { phone_number: '+2348030000000', address: investorBody().contact.address },
        identity: { middle_name: 'Chioma' },
        metadata: { b: '2' },
      });
      expect(again.status).toBe(200);
      expect((await eventsOf(ctx, own)).filter((e) => e.event === 'account.updated')).toHaveLength(1);
    });

    it('POST /v1/investors/{id} is the same update', async () => {
      const investor = await createInvestor(ctx, tenant.test);
      const res = await ctx.as(tenant.test).post(`/v1/investors/${investor.id}`, {
        contact: {
          address: {
            street: ['1 Main St'],
            city: 'Austin',
            state: 'TX',
            postal_code: '73301',
            country: 'US',
          },
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.contact.address).toEqual({
        street: ['1 Main St'],
        unit: null,
        city: 'Austin',
        state: 'TX',
        postal_code: '73301',
        country: 'US',
      });
    });

    it('validates updates against the merged investor', async () => {
      const investor = await createInvestor(ctx, tenant.test);
      const patch = (body: object) => ctx.as(tenant.test).patch(`/v1/investors/${investor.id}`, body);
      expectSvcError(await patch({ identity: { tax_id_type: 'GBR_NINO' } }), 'SVC-400-001', {
        param: 'identity.tax_id_type',
      });
      expectSvcError(
        await patch({ identity: { tax_id_type: 'GBR_NINO', country_of_tax_residence: 'GB' } }),
        'SVC-400-001',
        { param: 'identity.tax_id' },
      );
      expectSvcError(await patch({ contact: { email_address: null } }), 'SVC-400-001', {
        param: 'contact.email_address',
      });
      expectSvcError(await patch({ identity: { last_name: null } }), 'SVC-400-001', {
        param: 'identity.last_name',
      });
      expectSvcError(await patch({ contact: { address: { city: 'Austin' } } }), 'SVC-400-002', {
        param: 'contact.address.street',
      });
      expectSvcError(await patch({ enabled_assets: ['options'] }), 'SVC-400-001', {
        param: 'enabled_assets[0]',
      });
      const ok = await patch({
        identity: {
          tax_id_type: 'GBR_NINO',
          tax_id: 'AB 12 34 56 C',
          country_of_tax_residence: 'GB',
          middle_name: null,
        },
      });
      expect(ok.status).toBe(200);
      expect(ok.body.identity).toMatchObject({
        tax_id_type: 'GBR_NINO',
        tax_id: '*****456C',
        middle_name: null,
      });
    });

    it('identity and disclosures freeze once KYC is submitted; a closed investor changes no more (409)', async () => {
      const investor = await createInvestor(ctx, tenant.test);
      await ctx.as(tenant.test).post(`/v1/test_helpers/investors/${investor.id}/kyc/approve`);
      expectSvcError(
        await ctx
          .as(tenant.test)
          .patch(`/v1/investors/${investor.id}`, { identity: { last_name: 'Okafor' } }),
        'SVC-409-001',
        { message: /identity cannot change once KYC is submitted/ },
      );
      expectSvcError(
        await ctx.as(tenant.test).patch(`/v1/investors/${investor.id}`, {
          disclosures: { is_control_person: true },
        }),
        'SVC-409-001',
      );
      const contact = await ctx.as(tenant.test).patch(`/v1/investors/${investor.id}`, {
        contact: { phone_number: '+447700900123' },
      });
      expect(contact.status).toBe(200);
      expect(
        (await ctx.as(tenant.test).post(`/v1/accounts/${investor.account_id}/actions/close`)).status,
      ).toBe(200);
      expectSvcError(
        await ctx.as(tenant.test).patch(`/v1/investors/${investor.id}`, { metadata: { late: 'yes' } }),
        'SVC-409-001',
      );
      expect((await ctx.as(tenant.test).get(`/v1/investors/${investor.id}`)).body.status).toBe('closed');
    });
  });

  describe('investor-scoped keys and modes', () => {
    it('an investor key reads and updates its own investor only; listing and creating are tenant-level (403)', async () => {
      const mine = await createInvestor(ctx, tenant.test);
      const other = await createInvestor(ctx, tenant.test);
      const key = await investorKey(ctx, tenant.test, mine.id);
      expect((await ctx.as(key).get(`/v1/investors/${mine.id}`)).body.id).toBe(mine.id);
      expect((await ctx.as(key).patch(`/v1/investors/${mine.id}`, { metadata: { app: 'yes' } })).status).toBe(
        200,
      );
      expectSvcError(await ctx.as(key).get(`/v1/investors/${other.id}`), 'SVC-404-001');
      expectSvcError(
        await ctx.as(key).patch(`/v1/investors/${other.id}`, { metadata: { x: 'y' } }),
        'SVC-404-001',
      );
      expectSvcError(await ctx.as(key).get('/v1/investors'), 'SVC-403-001');
      expectSvcError(await ctx.as(key).post('/v1/investors', investorBody()), 'SVC-403-001');
    });

    it('test and live investors never mix', async () => {
      const testInvestor = await createInvestor(ctx, tenant.test);
      const liveInvestor = await createInvestor(ctx, tenant.live);
      expect(liveInvestor.livemode).toBe(true);
      expect(testInvestor.livemode).toBe(false);
      expectSvcError(await ctx.as(tenant.live).get(`/v1/investors/${testInvestor.id}`), 'SVC-404-001');
      expectSvcError(await ctx.as(tenant.test).get(`/v1/investors/${liveInvestor.id}`), 'SVC-404-001');
      const liveList = (await ctx.as(tenant.live).get('/v1/investors?limit=100')).body.data.map(
        (i: { id: string }) => i.id,
      );
      expect(liveList).toEqual([liveInvestor.id]);
      const testList = (await ctx.as(tenant.test).get('/v1/investors?limit=100')).body.data.map(
        (i: { id: string }) => i.id,
      );
      expect(testList).toContain(testInvestor.id);
      expect(testList).not.toContain(liveInvestor.id);
    });
  });
});

/**
 * Every id of a cursor-paged list, following `has_more` from `query`: with starting_after from the
 * last id of each page, or with ending_before from the first (the pages come newest first).
 */
async function walk(client: TestClient, query: string, direction: 'starting_after' | 'ending_before') {
  const ids: string[] = [];
  let next = query;
  for (;;) {
    const page = await client.get(`/v1/investors?${next}`);
    expect(page.status).toBe(200);
    const pageIds = (page.body.data as Array<{ id: string }>).map((i) => i.id);
    ids.splice(direction === 'starting_after' ? ids.length : 0, 0, ...pageIds);
    if (!page.body.has_more) {
      return ids;
    }
    const base = query.replace(/&ending_before=[^&]*/, '');
    next =
      direction === 'starting_after'
        ? `${base}&starting_after=${ids[ids.length - 1]}`
        : `${base}&ending_before=${ids[0]}`;
  }
}
