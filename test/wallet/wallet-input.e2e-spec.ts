import { useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { createInvestor, investorKey } from '../investors/fixtures';
import { activeInvestor, balances, fundedAccount, fundingBody, linkBankAccount } from './support/wallet';

describe('Wallet: bad input and scope', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  let investor: { id: string; account_id: string };
  let bank: { id: string };
  let wallet: string;
  beforeAll(async () => {
    ({ investor, bank } = await fundedAccount(ctx, tenant.test, '100.00'));
    wallet = `/v1/wallet/accounts/${investor.account_id}`;
  });

  describe('amounts: 400 naming amount, nothing written', () => {
    it.each([
      ['10.001', 'SVC-400-001'],
      ['-5.00', 'SVC-400-001'],
      ['0', 'SVC-400-001'],
      ['0.00', 'SVC-400-001'],
      ['1e3', 'SVC-400-001'],
      ['1E3', 'SVC-400-001'],
      ['010.00', 'SVC-400-001'],
      [' 10.00', 'SVC-400-001'],
      ['10.', 'SVC-400-001'],
      ['', 'SVC-400-001'],
      ['1000000.01', 'SVC-400-001'],
      ['0.99', 'SVC-400-001'],
      ['99999999999999999999999', 'SVC-400-001'],
      [10, 'SVC-400-001'],
      [10.5, 'SVC-400-001'],
      [true, 'SVC-400-001'],
      [['10.00'], 'SVC-400-001'],
      [null, 'SVC-400-002'],
      [undefined, 'SVC-400-002'],
    ] as const)('%j', async (amount, code) => {
      const before = (await transactions()).length;
      for (const route of ['funding', 'withdrawals']) {
        expectSvcError(
          await client().post(`${wallet}/${route}`, fundingBody(bank.id, amount as never)),
          code,
          {
            param: 'amount',
          },
        );
      }
      expectSvcError(
        await client().post(`/v1/investors/${investor.id}/deposits`, { amount, funding_source_id: bank.id }),
        code,
        { param: 'amount' },
      );
      expect((await transactions()).length).toBe(before);
    });

    it('a currency without minor units takes whole amounts only', async () => {
      const yen = await linkBankAccount(ctx, tenant.test, investor.id, {
        currency: 'JPY',
        country: 'JP',
        routing_number: undefined,
        bank_code: '0001',
      });
      const body = (amount: string) => ({
        amount,
        funding_details: { funding_type: 'fiat', fiat_currency: 'JPY', bank_account_id: yen.id },
      });
      expectSvcError(await client().post(`${wallet}/funding`, body('1500.5')), 'SVC-400-001', {
        param: 'amount',
        message: 'JPY amounts carry at most 0 decimals.',
      });
      const ok = await client().post(`${wallet}/funding`, body('1500'));
      expect(ok.body).toMatchObject({ amount: '1500', currency: 'JPY', fee: '0', net_amount: '1500' });
      await client().post(`/v1/test_helpers/wallet/transactions/${ok.body.transaction_id}/settle`);
      expect(await balances(ctx, tenant.test, investor.account_id)).toEqual([
        expect.objectContaining({ currency: 'USD', cash: '100.00' }),
        {
          currency: 'JPY',
          cash: '1500',
          available: '1500',
          pending_deposits: '0',
          withdrawal_holds: '0',
          order_holds: '0',
        },
      ]);
    });
  });

  describe('funding details: 400 naming the field', () => {
    const details = (change: Record<string, unknown>) => ({
      funding_type: 'fiat',
      bank_account_id: bank.id,
      ...change,
    });

    it.each([
      ['no funding_details', () => ({ funding_details: undefined }), 'SVC-400-002', 'funding_details'],
      ['an array', () => ({ funding_details: [] }), 'SVC-400-001', 'funding_details'],
      ['a string', () => ({ funding_details: 'fs_x' }), 'SVC-400-001', 'funding_details'],
      [
        'crypto',
        () => ({ funding_details: details({ funding_type: 'crypto' }) }),
        'SVC-400-001',
        'funding_details.funding_type',
      ],
      [
        'no bank account',
        () => ({ funding_details: { funding_type: 'fiat' } }),
        'SVC-400-002',
        'funding_details.bank_account_id',
      ],
      [
        'a lower-case currency',
        () => ({ funding_details: details({ fiat_currency: 'usd' }) }),
        'SVC-400-001',
        'funding_details.fiat_currency',
      ],
      [
        'an unknown method',
        () => ({ funding_details: details({ method: 'swift' }) }),
        'SVC-400-001',
        'funding_details.method',
      ],
      [
        'an unknown detail',
        () => ({ funding_details: details({ network: 'x' }) }),
        'SVC-400-001',
        'funding_details.network',
      ],
      ['a long description', () => ({ description: 'x'.repeat(501) }), 'SVC-400-001', 'description'],
      ['a numeric reference', () => ({ external_reference_id: 12 }), 'SVC-400-001', 'external_reference_id'],
      ['metadata (envelope routes only)', () => ({ metadata: {} }), 'SVC-400-001', 'metadata'],
    ] as const)('%s', async (_name, change, code, param) => {
      expectSvcError(
        await client().post(`${wallet}/funding`, { ...fundingBody(bank.id, '10.00'), ...change() }),
        code,
        {
          param,
        },
      );
    });

    it('a bank account must be this investor’s and in the currency asked', async () => {
      const other = await activeInvestor(ctx, tenant.test);
      const theirs = await linkBankAccount(ctx, tenant.test, other.id);
      expectSvcError(
        await client().post(`${wallet}/funding`, fundingBody(theirs.id, '10.00')),
        'SVC-400-001',
        {
          param: 'funding_details.bank_account_id',
        },
      );
      expectSvcError(
        await client().post(`${wallet}/funding`, fundingBody('fs_unknown', '10.00')),
        'SVC-400-001',
        {
          param: 'funding_details.bank_account_id',
        },
      );
      const euro = fundingBody(bank.id, '10.00');
      euro.funding_details.fiat_currency = 'EUR';
      expectSvcError(await client().post(`${wallet}/funding`, euro), 'SVC-400-001', {
        param: 'funding_details.fiat_currency',
      });
      expectSvcError(
        await client().post(`/v1/investors/${investor.id}/deposits`, {
          amount: '10.00',
          currency: 'EUR',
          funding_source_id: bank.id,
        }),
        'SVC-400-001',
        { param: 'currency' },
      );
    });
  });

  describe('scope', () => {
    it('investor keys reach their own account only; other tenants and modes see nothing', async () => {
      const key = await investorKey(ctx, tenant.test, investor.id);
      const other = await activeInvestor(ctx, tenant.test);
      const otherBank = await linkBankAccount(ctx, tenant.test, other.id);
      const own = await ctx.as(key).post(`${wallet}/funding`, fundingBody(bank.id, '5.00'));
      expect(own.status).toBe(201);
      const elsewhere = `/v1/wallet/accounts/${other.account_id}`;
      expectSvcError(
        await ctx.as(key).post(`${elsewhere}/funding`, fundingBody(otherBank.id, '5.00')),
        'SVC-404-001',
      );
      expectSvcError(await ctx.as(key).get(`${elsewhere}/balances`), 'SVC-404-001');
      expectSvcError(await ctx.as(key).get(`${elsewhere}/transactions`), 'SVC-404-001');
      const theirs = await client().post(`${elsewhere}/funding`, fundingBody(otherBank.id, '5.00'));
      expectSvcError(
        await ctx.as(key).get(`${elsewhere}/transactions/${theirs.body.transaction_id}`),
        'SVC-404-001',
      );
      expectSvcError(
        await client().get(`${wallet}/transactions/${theirs.body.transaction_id}`),
        'SVC-404-001',
      );
      expectSvcError(
        await client().post(`${wallet}/transactions/${theirs.body.transaction_id}/cancel`),
        'SVC-404-001',
      );
      expectSvcError(await ctx.as(key).get(`/v1/investors/${other.id}/deposits`), 'SVC-404-001');

      const stranger = await ctx.createTenant();
      expectSvcError(await ctx.as(stranger.test).get(`${wallet}/balances`), 'SVC-404-001');
      expectSvcError(
        await ctx.as(stranger.test).post(`${wallet}/funding`, fundingBody(bank.id, '5.00')),
        'SVC-404-001',
      );
      expectSvcError(await ctx.as(tenant.live).get(`${wallet}/balances`), 'SVC-404-001');
      expectSvcError(await client().get('/v1/wallet/accounts/not-a-uuid/balances'), 'SVC-404-001');
      expectSvcError(await client().get(`${wallet}/transactions/txn_missing`), 'SVC-404-001');
    });

    it('only ACTIVE accounts move money: 422 SVC-422-001 naming the account', async () => {
      const applicant = await createInvestor(ctx, tenant.test);
      const applicantBank = await linkBankAccount(ctx, tenant.test, applicant.id);
      expectSvcError(
        await client().post(
          `/v1/wallet/accounts/${applicant.account_id}/funding`,
          fundingBody(applicantBank.id, '5.00'),
        ),
        'SVC-422-001',
        {
          param: 'account_id',
          message: `Account ${applicant.account_id} is SUBMITTED; only ACTIVE accounts may trade or move money.`,
        },
      );
      expectSvcError(
        await client().post(`/v1/investors/${applicant.id}/withdrawals`, {
          amount: '5.00',
          funding_source_id: applicantBank.id,
        }),
        'SVC-422-001',
        { param: 'investor_id' },
      );
      const suspended = await fundedAccount(ctx, tenant.test, '20.00');
      await client().post(`/v1/accounts/${suspended.investor.account_id}/actions/suspend`);
      expectSvcError(
        await client().post(
          `/v1/wallet/accounts/${suspended.investor.account_id}/withdrawals`,
          fundingBody(suspended.bank.id, '5.00'),
        ),
        'SVC-422-001',
        { param: 'account_id' },
      );
      expect(await balances(ctx, tenant.test, suspended.investor.account_id)).toMatchObject([
        { available: '20.00' },
      ]);
    });
  });

  describe('transaction list', () => {
    it('newest first, with type, status and created filters and offset paging', async () => {
      const { investor: holder, bank: holderBank } = await fundedAccount(ctx, tenant.test, '50.00');
      const path = `/v1/wallet/accounts/${holder.account_id}`;
      const w1 = await client().post(`${path}/withdrawals`, fundingBody(holderBank.id, '5.00'));
      const d2 = await client().post(`${path}/funding`, fundingBody(holderBank.id, '7.00'));
      await client().post(`${path}/transactions/${w1.body.transaction_id}/cancel`);
      const ids = async (query: string) =>
        ((await client().get(`${path}/transactions${query}`)).body as Array<{ transaction_id: string }>).map(
          (t) => t.transaction_id,
        );
      const all = await ids('');
      expect(all).toHaveLength(3);
      expect(all.slice(0, 2).sort()).toEqual([w1.body.transaction_id, d2.body.transaction_id].sort());
      expect(await ids('?type=withdrawal')).toEqual([w1.body.transaction_id]);
      expect(await ids('?status=canceled')).toEqual([w1.body.transaction_id]);
      expect(await ids('?type=deposit&status=pending')).toEqual([d2.body.transaction_id]);
      expect(await ids('?limit=1')).toEqual([all[0]]);
      expect(await ids('?limit=2&offset=1')).toEqual(all.slice(1));
      expect(await ids('?created_gte=2999-01-01T00:00:00Z')).toEqual([]);
      expect((await ids('?created_lt=2999-01-01T00:00:00Z')).sort()).toEqual([...all].sort());
      for (const [query, param] of [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['offset=-1', 'offset'],
        ['offset=2147483648', 'offset'], // past the published maximum (a 32-bit integer)
        ['offset=1.5', 'offset'],
        ['type=fee', 'type'],
        ['status=done', 'status'],
        ['created_gte=yesterday', 'created_gte'],
        ['created_lt=2026-13-01T00:00:00Z', 'created_lt'],
        ['sort=asc', 'sort'],
      ]) {
        expectSvcError(await client().get(`${path}/transactions?${query}`), 'SVC-400-001', { param });
      }
    });
  });

  const client = () => ctx.as(tenant.test);
  const transactions = async () => (await client().get(`${wallet}/transactions`)).body as unknown[];
});
