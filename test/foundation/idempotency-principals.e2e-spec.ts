import { useTenant, useTestContext } from '../support/app';
import { madeBeforeAll } from '../support/made-before-all';
import { expectSvcError } from '../support/errors';
import { investorKey } from '../investors/fixtures';
import { activeInvestor, fundingBody, linkBankAccount, SETTLING_ACCOUNT } from '../wallet/support/wallet';

/**
 * An Idempotency-Key belongs to the principal that sent it (tenant, mode and the investor scope of
 * the key or token): the same key from another investor's key, or from a tenant-level key, is a
 * new request, never a replay of the first principal's stored response nor a 409 that tells the
 * key exists.
 */
describe('Idempotency-Key: scoped to the principal', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  const first = madeBeforeAll('The first investor', () => activeInvestor(ctx, tenant.test));
  const second = madeBeforeAll('The second investor', () => activeInvestor(ctx, tenant.test));
  const firstKey = madeBeforeAll('The first investor key', () => investorKey(ctx, tenant.test, first.id));
  const secondKey = madeBeforeAll('The second investor key', () => investorKey(ctx, tenant.test, second.id));

  it('another investor key replaying the path, body and key gets no stored response and no 409', async () => {
    const path = `/v1/investors/${first.id}/funding-sources`;
    const made = await ctx.as(firstKey).post(path, bankAccount('Ada Obi'), 'user-chosen-key-1');
    expect(made.status).toBe(201);

    const replayed = await ctx.as(secondKey).post(path, bankAccount('Ada Obi'), 'user-chosen-key-1');
    expect(replayed.headers['idempotent-replayed']).toBeUndefined();
    expect(JSON.stringify(replayed.body)).not.toContain(made.body.id as string);
    expectSvcError(replayed, 'SVC-404-001');

    const otherBody = await ctx.as(secondKey).post(path, bankAccount('Eve'), 'user-chosen-key-1');
    expect(otherBody.headers['idempotent-replayed']).toBeUndefined();
    expectSvcError(otherBody, 'SVC-404-001');

    // The principal that made it still gets its replay.
    const own = await ctx.as(firstKey).post(path, bankAccount('Ada Obi'), 'user-chosen-key-1');
    expect(own.headers['idempotent-replayed']).toBe('true');
    expect(own.body).toEqual(made.body);
  });

  it('a tenant-level key and an investor key never share a key space', async () => {
    const path = `/v1/investors/${first.id}/funding-sources`;
    const byInvestor = await ctx.as(firstKey).post(path, bankAccount('Ada Obi'), 'shared-space-1');
    expect(byInvestor.status).toBe(201);
    const byTenant = await ctx.as(tenant.test).post(path, bankAccount('Ada Obi'), 'shared-space-1');
    expect(byTenant.status).toBe(201);
    expect(byTenant.headers['idempotent-replayed']).toBeUndefined();
    expect(byTenant.body.id).not.toBe(byInvestor.body.id);
    // Another body from the tenant key is a new request too (no 409 SVC-409-002 telling the key exists).
    const otherBody = await ctx.as(tenant.test).post(path, bankAccount('Bea Obi'), 'shared-space-2');
    expect(otherBody.status).toBe(201);
    const investorAgain = await ctx.as(firstKey).post(path, bankAccount('Bea Obi'), 'shared-space-2');
    expect(investorAgain.status).toBe(201);
    expect(investorAgain.headers['idempotent-replayed']).toBeUndefined();
    expect(investorAgain.body.id).not.toBe(otherBody.body.id);
  });

  it('a route that keeps its key in its transaction (funding) is scoped the same way', async () => {
    const bank = await linkBankAccount(ctx, tenant.test, first.id);
    const path = `/v1/wallet/accounts/${first.account_id}/funding`;
    const made = await ctx.as(firstKey).post(path, fundingBody(bank.id, '25.00'), 'funding-key-1');
    expect(made.status).toBe(201);

    const replayed = await ctx.as(secondKey).post(path, fundingBody(bank.id, '25.00'), 'funding-key-1');
    expect(replayed.headers['idempotent-replayed']).toBeUndefined();
    expect(JSON.stringify(replayed.body)).not.toContain(made.body.transaction_id as string);
    expect(replayed.status).toBe(404);
    const otherBody = await ctx.as(secondKey).post(path, fundingBody(bank.id, '26.00'), 'funding-key-1');
    expect(otherBody.status).toBe(404);

    const byTenant = await ctx.as(tenant.test).post(path, fundingBody(bank.id, '25.00'), 'funding-key-1');
    expect(byTenant.status).toBe(201);
    expect(byTenant.headers['idempotent-replayed']).toBeUndefined();
    expect(byTenant.body.transaction_id).not.toBe(made.body.transaction_id);

    const own = await ctx.as(firstKey).post(path, fundingBody(bank.id, '25.00'), 'funding-key-1');
    expect(own.headers['idempotent-replayed']).toBe('true');
    expect(own.body).toEqual(made.body);
  });

  it('the second investor’s own request under the same key runs as its own', async () => {
    const path = `/v1/investors/${second.id}/funding-sources`;
    const res = await ctx.as(secondKey).post(path, bankAccount('Ada Obi'), 'user-chosen-key-1');
    expect(res.status).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(res.body.investor_id).toBe(second.id);
  });

  const bankAccount = (holder: string) => ({
    type: 'bank_account',
    account_holder_name: holder,
    account_number: SETTLING_ACCOUNT,
    routing_number: '110000000',
    currency: 'USD',
    country: 'US',
  });
});
