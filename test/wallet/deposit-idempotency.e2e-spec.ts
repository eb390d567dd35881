import { useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { activeInvestor, fundingBody, linkBankAccount } from './support/wallet';

/**
 * Deposits and withdrawals check and store their Idempotency-Key inside the transfer's own
 * transaction (`@IdempotencyInTransaction()`): the documented behaviour stays that of every other
 * POST route (replay, 409 SVC-409-002 for another body, 409 SVC-409-003 while the first runs, a
 * failed request stores nothing).
 */
describe('Idempotency-Key on deposits, kept inside the transfer transaction', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  let accountId: string;
  let investorId: string;
  let bankId: string;
  beforeAll(() => openAccountWithBank());

  it('a repeat replays the stored deposit, and only one transfer exists', async () => {
    const body = { ...fundingBody(bankId, '11.00'), description: 'replayed once' };
    const first = await client().post(`/v1/wallet/accounts/${accountId}/funding`, body, 'dep-replay-1');
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await client().post(`/v1/wallet/accounts/${accountId}/funding`, body, 'dep-replay-1');
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await transfersWith('replayed once')).toHaveLength(1);
  });

  it('the same key with another body answers 409 SVC-409-002', async () => {
    expect((await deposit('dep-mismatch-1', '12.00')).status).toBe(201);
    expectSvcError(await deposit('dep-mismatch-1', '13.00'), 'SVC-409-002', { param: 'Idempotency-Key' });
  });

  it('the same key with another body that fails validation still answers 409 SVC-409-002', async () => {
    expect((await deposit('dep-mismatch-2', '12.50')).status).toBe(201);
    expectSvcError(await deposit('dep-mismatch-2', '1e3'), 'SVC-409-002', { param: 'Idempotency-Key' });
    expectSvcError(
      await client().post(
        `/v1/wallet/accounts/not-an-account/funding`,
        fundingBody(bankId, '12.50'),
        'dep-mismatch-2',
      ),
      'SVC-409-002',
      { param: 'Idempotency-Key' },
    );
  });

  it('20 simultaneous repeats: one deposit is made, every other answer is a 409 SVC-409-003 or its replay', async () => {
    const body = { ...fundingBody(bankId, '14.00'), description: 'burst of repeats' };
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        client().post(`/v1/wallet/accounts/${accountId}/funding`, body, 'dep-burst-1'),
      ),
    );
    const created = results.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] !== 'true');
    expect(created).toHaveLength(1);
    for (const r of results) {
      if (r.status === 201) {
        expect(r.body).toEqual(created[0].body);
      } else {
        expectSvcError(r, 'SVC-409-003', { param: 'Idempotency-Key' });
      }
    }
    expect(await transfersWith('burst of repeats')).toHaveLength(1);
  });

  it('a refused deposit stores nothing, so the key can be used again', async () => {
    const refused = await deposit('dep-refused-1', '15.00', 'fs_doesnotexist00000000');
    expect(refused.status).toBe(400);
    const ok = await deposit('dep-refused-1', '15.00');
    expect(ok.status).toBe(201);
    expect(ok.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a key used on another route answers 409 SVC-409-002 here, and the other way round', async () => {
    const endpoint = { url: 'https://8.8.8.8/hooks', eventTypeNames: ['order.*'], name: 'shared key' };
    expect((await client().post('/v1/webhooks', endpoint, 'dep-shared-1')).status).toBe(201);
    expectSvcError(await deposit('dep-shared-1'), 'SVC-409-002', { param: 'Idempotency-Key' });
    expect((await deposit('dep-shared-2')).status).toBe(201);
    expectSvcError(await client().post('/v1/webhooks', endpoint, 'dep-shared-2'), 'SVC-409-002', {
      param: 'Idempotency-Key',
    });
  });

  it('the investor view of deposits keeps its key in its transaction too', async () => {
    const body = { amount: '16.00', currency: 'USD', funding_source_id: bankId };
    const path = `/v1/investors/${investorId}/deposits`;
    const first = await client().post(path, body, 'dep-investor-1');
    expect(first.status).toBe(201);
    const again = await client().post(path, body, 'dep-investor-1');
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  const client = () => ctx.as(tenant.test);
  const deposit = (key: string, amount = '10.00', bank = bankId) =>
    client().post(`/v1/wallet/accounts/${accountId}/funding`, fundingBody(bank, amount), key);
  const transfersWith = async (description: string) => {
    const res = await client().get(`/v1/wallet/accounts/${accountId}/transactions?limit=100`);
    expect(res.status).toBe(200);
    return (res.body as Array<{ description: string | null }>).filter((t) => t.description === description);
  };

  /** An active investor with a linked bank account: the account every case deposits into. */
  async function openAccountWithBank(): Promise<void> {
    const investor = await activeInvestor(ctx, tenant.test);
    accountId = investor.account_id;
    investorId = investor.id;
    bankId = (await linkBankAccount(ctx, tenant.test, investor.id)).id;
  }
});
