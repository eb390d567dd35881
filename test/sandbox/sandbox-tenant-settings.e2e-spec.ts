import { useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { adminToken } from '../support/remote';
import { sandboxTerms } from '../support/sandbox-terms';

/** A tenant's commercial terms through the sandbox admin API, as support sets them with the CLI. */
describe('Sandbox admin API: a tenant’s terms', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);

  it('commission: an empty body answers the default, a change answers the new terms', async () => {
    expect(await sandboxTerms(ctx, tenant.tenantId, 'commission', {})).toEqual({
      tenant_id: tenant.tenantId,
      commission_type: 'notional',
      amount: '0',
    });
    expect(
      await sandboxTerms(ctx, tenant.tenantId, 'commission', { commission_type: 'qty', amount: '0.05' }),
    ).toEqual({
      tenant_id: tenant.tenantId,
      commission_type: 'qty',
      amount: '0.05',
    });
    // One field keeps the other.
    expect(await sandboxTerms(ctx, tenant.tenantId, 'commission', { amount: '0.10' })).toMatchObject({
      commission_type: 'qty',
      amount: '0.1',
    });
  });

  it('transfer settings: fees and bounds, each kept until changed', async () => {
    const other = await ctx.createTenant();
    expect(await sandboxTerms(ctx, other.tenantId, 'transfer-settings', {})).toEqual({
      tenant_id: other.tenantId,
      deposit_fee: { flat: '0', bps: 0 },
      withdrawal_fee: { flat: '0', bps: 0 },
      min_amount: '1',
      max_amount: '1000000',
    });
    await sandboxTerms(ctx, other.tenantId, 'transfer-settings', { deposit_fee_bps: 25, max_amount: '5000' });
    expect(
      await sandboxTerms(ctx, other.tenantId, 'transfer-settings', { withdrawal_fee_flat: '1.50' }),
    ).toEqual({
      tenant_id: other.tenantId,
      deposit_fee: { flat: '0', bps: 25 },
      withdrawal_fee: { flat: '1.5', bps: 0 },
      min_amount: '1',
      max_amount: '5000',
    });
  });

  it('cash sweep rates: the default tier of both modes', async () => {
    const body = await sandboxTerms(ctx, tenant.tenantId, 'cash-sweep-rates', {
      account_rate_bps: 730,
      correspondent_rate_bps: 0,
    });
    const tier = { name: 'standard', currency: 'USD', account_rate_bps: 730, correspondent_rate_bps: 0 };
    expect(body).toEqual({
      tenant_id: tenant.tenantId,
      data: [
        { id: expect.stringMatching(/^apr_/), livemode: false, ...tier },
        { id: expect.stringMatching(/^apr_/), livemode: true, ...tier },
      ],
    });
  });

  it('corporate action settings: dividend withholding, default 3000 bps', async () => {
    expect(await sandboxTerms(ctx, tenant.tenantId, 'corporate-action-settings', {})).toEqual({
      tenant_id: tenant.tenantId,
      dividend_withholding_bps: 3000,
    });
    expect(
      await sandboxTerms(ctx, tenant.tenantId, 'corporate-action-settings', {
        dividend_withholding_bps: 1500,
      }),
    ).toEqual({ tenant_id: tenant.tenantId, dividend_withholding_bps: 1500 });
  });

  it.each([
    ['commission', { commission_type: 'percent' }, 'commission_type'],
    ['commission', { amount: '-1' }, 'amount'],
    ['commission', { amount: 5 }, 'amount'],
    ['transfer-settings', { deposit_fee_bps: 20000 }, 'deposit_fee_bps'],
    ['transfer-settings', { withdrawal_fee_flat: '1.23456' }, 'withdrawal_fee_flat'],
    ['transfer-settings', { min_amount: '0' }, 'min_amount'],
    ['transfer-settings', { min_amount: '2000000' }, 'min_amount'],
    ['cash-sweep-rates', { account_rate_bps: 10001 }, 'account_rate_bps'],
    ['cash-sweep-rates', { account_rate_bps: 9000, correspondent_rate_bps: 2000 }, 'account_rate_bps'],
    ['cash-sweep-rates', { currency: 'XXX' }, 'currency'],
    ['cash-sweep-rates', { currency: 'usd' }, 'currency'],
    ['corporate-action-settings', { dividend_withholding_bps: 10001 }, 'dividend_withholding_bps'],
    ['corporate-action-settings', { dividend_withholding_bps: '15' }, 'dividend_withholding_bps'],
    ['corporate-action-settings', { dividend_withholding_bps: null }, 'dividend_withholding_bps'],
  ])('%s %j answers 400 naming %s, and changes nothing', async (path, body, param) => {
    const before = await sandboxTerms(ctx, tenant.tenantId, path, {});
    const res = await patch(path, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ param });
    expect(await sandboxTerms(ctx, tenant.tenantId, path, {})).toEqual(before);
  });

  it.each(['commission', 'transfer-settings', 'cash-sweep-rates', 'corporate-action-settings'])(
    '%s: 404 for an unknown tenant, 401 with a wrong token',
    async (path) => {
      expectSvcError(
        await ctx
          .http()
          .patch(`/v1/sandbox/tenants/ten_nope/${path}`)
          .set('Authorization', `Bearer ${adminToken()}`)
          .send({}),
        'SVC-404-001',
      );
      expectSvcError(await patch(path, {}, `${adminToken()}x`), 'SVC-401-001');
    },
  );

  const patch = (path: string, body: object, token = adminToken()) =>
    ctx
      .http()
      .patch(`/v1/sandbox/tenants/${tenant.tenantId}/${path}`)
      .set('Authorization', `Bearer ${token}`)
      .send(body);
});
