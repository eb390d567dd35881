import { closeCliContext } from 'src/cli/cli-context';
import { basic, createTestContext, itLocal, TestContext } from '../support/app';
import { runCli } from '../support/cli';
import { expectSvcError } from '../support/errors';
import { ProbeController } from '../support/probe.controller';

describe('Support CLI', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext({ controllers: [ProbeController] });
  });

  afterAll(async () => {
    await closeCliContext();
    await ctx?.close();
  });

  itLocal('tenants:create prints the tenant and one test and one live key whose secrets work', async () => {
    const out = await runCli('tenants:create', '--name', 'Acme', '--products', 'market_data');
    expect(out).toMatchObject({
      tenant_id: expect.stringMatching(/^ten_/),
      products: ['market_data'],
      fixed_income_enabled: false,
      keys: {
        test: {
          id: expect.stringMatching(/^apk_/),
          public_key: expect.stringMatching(/^pk_test_/),
          secret: expect.stringMatching(/^sk_test_/),
        },
        live: {
          id: expect.stringMatching(/^apk_/),
          public_key: expect.stringMatching(/^pk_live_/),
          secret: expect.stringMatching(/^sk_live_/),
        },
      },
    });
    const creds = { id: out.keys.test.id, publicKey: out.keys.test.public_key, secret: out.keys.test.secret };
    const res = await ctx.http().get('/v1/probe/market-data').set('Authorization', basic(creds));
    expect(res.status).toBe(200);
  });

  itLocal('tenants:branding shows and sets the name and colour printed on documents', async () => {
    const created = await runCli('tenants:create', '--name', 'Branded');
    expect(await runCli('tenants:branding', created.tenant_id)).toEqual({
      tenant_id: created.tenant_id,
      display_name: null,
      accent_color: null,
    });
    expect(
      await runCli(
        'tenants:branding',
        created.tenant_id,
        '--display-name',
        'Acme Invest',
        '--accent-color',
        '#0a7d5a',
      ),
    ).toEqual({ tenant_id: created.tenant_id, display_name: 'Acme Invest', accent_color: '#0a7d5a' });
    expect(await runCli('tenants:branding', created.tenant_id, '--accent-color', '#112233')).toEqual({
      tenant_id: created.tenant_id,
      display_name: 'Acme Invest',
      accent_color: '#112233',
    });
    await expect(runCli('tenants:branding', created.tenant_id, '--accent-color', 'red')).rejects.toThrow(
      /#rrggbb/,
    );
  });

  itLocal('tenants:update switches products and the fixed-income flag', async () => {
    const created = await runCli('tenants:create', '--name', 'Beta');
    const updated = await runCli(
      'tenants:update',
      created.tenant_id,
      '--enable',
      'market_data,cash_management',
      '--fixed-income',
      'on',
    );
    expect(updated).toEqual({
      tenant_id: created.tenant_id,
      name: 'Beta',
      products: ['cash_management', 'market_data'],
      fixed_income_enabled: true,
    });
    const off = await runCli(
      'tenants:update',
      created.tenant_id,
      '--disable',
      'cash_management',
      '--fixed-income',
      'off',
    );
    expect(off.products).toEqual(['market_data']);
    expect(off.fixed_income_enabled).toBe(false);
  });

  itLocal('keys:create makes an investor-scoped key; keys:revoke stops it', async () => {
    const tenant = await runCli('tenants:create', '--name', 'Gamma');
    const key = await runCli(
      'keys:create',
      '--tenant',
      tenant.tenant_id,
      '--environment',
      'PRODUCTION',
      '--investor',
      'inv_cli0000000000000001',
    );
    expect(key).toMatchObject({
      id: expect.stringMatching(/^apk_/),
      tenant_id: tenant.tenant_id,
      account_id: 'inv_cli0000000000000001',
      environment: 'PRODUCTION',
      status: 'active',
      public_key: expect.stringMatching(/^pk_live_/),
      secret: expect.stringMatching(/^sk_live_/),
    });
    const creds = { id: key.id, publicKey: key.public_key, secret: key.secret };
    const who = await ctx.http().get('/v1/probe/whoami').set('Authorization', basic(creds));
    expect(who.body).toMatchObject({ livemode: true, investor_id: 'inv_cli0000000000000001' });
    const revoked = await runCli('keys:revoke', key.id);
    expect(revoked.status).toBe('revoked');
    const deadline = Date.now() + 5000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      status = (await ctx.http().get('/v1/probe/whoami').set('Authorization', basic(creds))).status;
      if (status === 200) {
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    expectSvcError(
      await ctx.http().get('/v1/probe/whoami').set('Authorization', basic(creds)),
      'SVC-401-001',
    );
  });

  itLocal('refuses an unknown product before touching the database', async () => {
    await expect(runCli('tenants:create', '--name', 'X', '--products', 'crypto_lending')).rejects.toThrow(
      /unknown product/,
    );
  });
});
