import { Test } from '@nestjs/testing';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { AppModule } from 'src/app.module';
import { configureApp } from 'src/app.setup';
import { basic, isRemote, itLocal, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { adminToken, runTenantPrefix } from '../support/remote';
import { createInvestor } from '../investors/fixtures';

/** Issue 9: the sandbox admin API makes and erases tenants for QA runs (sandbox deployments only). */
describe('Sandbox admin API', () => {
  const ctx = useTestContext();
  const made: string[] = [];
  afterAll(async () => {
    for (const id of made) {
      await ctx.http().delete(`/v1/sandbox/tenants/${id}`).set(admin());
    }
  });

  it('creates a tenant answering its test and live keys, like tenants:create', async () => {
    const body = await createTenant({
      name: name('keys'),
      products: ['market_data'],
      fixedIncomeEnabled: true,
    });
    expect(body).toEqual({
      tenant_id: expect.stringMatching(/^ten_/),
      name: name('keys'),
      products: ['market_data'],
      fixed_income_enabled: true,
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
    const creds = {
      id: body.keys.test.id,
      publicKey: body.keys.test.public_key,
      secret: body.keys.test.secret,
    };
    const listed = await ctx.http().get('/v1/webhooks').set('Authorization', basic(creds));
    expect(listed.status).toBe(200);
    const quote = await ctx.http().get('/v1/market-data/quotes/AAPL').set('Authorization', basic(creds));
    expect(quote.status).not.toBe(403);
  });

  it('refuses a missing or wrong token, and API keys, with 401', async () => {
    const tenant = await ctx.createTenant();
    for (const authorization of [
      undefined,
      'Bearer not-the-token-at-all',
      basic(tenant.test),
      `Bearer ${adminToken()}x`,
    ]) {
      const req = ctx.http().post('/v1/sandbox/tenants');
      const res = await (authorization ? req.set('Authorization', authorization) : req).send({
        name: name('x'),
      });
      expectSvcError(res, 'SVC-401-001');
    }
  });

  it('names a bad field', async () => {
    const res = await ctx
      .http()
      .post('/v1/sandbox/tenants')
      .set(admin())
      .send({ name: name('p'), products: ['gold'] });
    expectSvcError(res, 'SVC-400-001', { param: 'products' });
    expectSvcError(await ctx.http().post('/v1/sandbox/tenants').set(admin()).send({}), 'SVC-400-002', {
      param: 'name',
    });
  });

  it('changes products and flags, and lists tenants by name prefix', async () => {
    const body = await createTenant({ name: name('patch') });
    const patched = await ctx
      .http()
      .patch(`/v1/sandbox/tenants/${body.tenant_id}`)
      .set(admin())
      .send({ products: ['cash_management', 'market_data'], fixedIncomeEnabled: true });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({
      tenant_id: body.tenant_id,
      name: name('patch'),
      products: ['cash_management', 'market_data'],
      fixed_income_enabled: true,
    });
    const listed = await ctx
      .http()
      .get('/v1/sandbox/tenants')
      .query({ name_prefix: name('patch') })
      .set(admin());
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((t: { tenant_id: string }) => t.tenant_id)).toEqual([body.tenant_id]);
    expectSvcError(
      await ctx.http().patch('/v1/sandbox/tenants/ten_nope').set(admin()).send({ fixedIncomeEnabled: true }),
      'SVC-404-001',
    );
  });

  it('deletes a tenant with all its data; its keys stop working', async () => {
    const body = await createTenant({ name: name('erase') });
    const creds = {
      id: body.keys.test.id,
      publicKey: body.keys.test.public_key,
      secret: body.keys.test.secret,
    };
    await createInvestor(ctx, creds);
    const hook = await ctx
      .http()
      .post('/v1/webhooks')
      .set('Authorization', basic(creds))
      .send({ name: 'erase', url: 'https://partner.example.com/hooks', eventTypeNames: ['kyc.*'] });
    expect(hook.status).toBe(201);
    const deleted = await ctx.http().delete(`/v1/sandbox/tenants/${body.tenant_id}`).set(admin());
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ tenant_id: body.tenant_id, deleted: true });
    expect(deleted.body.erased).toMatchObject({ api_keys: 2, investors: 1, webhook_endpoints: 1 });
    expect(deleted.body.erased.events).toBeGreaterThan(0);
    expectSvcError(
      await ctx.http().delete(`/v1/sandbox/tenants/${body.tenant_id}`).set(admin()),
      'SVC-404-001',
    );
    const listed = await ctx
      .http()
      .get('/v1/sandbox/tenants')
      .query({ name_prefix: name('erase') })
      .set(admin());
    expect(listed.body.data).toEqual([]);
    // Keys cached by the API (AUTH_CACHE_TTL_MS, at most 5 s) stop working once the cache expires.
    const deadline = Date.now() + 6000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await ctx.http().get('/v1/webhooks').set('Authorization', basic(creds))).status;
      if (status === 401) {
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(401);
  });

  it('/health/ready says which environment the deployment is', async () => {
    const res = await request(isRemote ? (process.env.E2E_BASE_URL as string) : ctx.app!.getHttpServer()).get(
      '/health/ready',
    );
    expect(res.status).toBe(200);
    expect(['sandbox', 'production']).toContain(res.body.app_env);
  });

  itLocal('erases rows of tables it was never told about, children before parents', async () => {
    // A table added by a later module: tenant_id plus a reference to another tenant-owned table, no cascade.
    await ctx.dataSource.query(`
      CREATE TABLE "qa_probe_parents" ("id" text PRIMARY KEY, "tenant_id" text NOT NULL REFERENCES "tenants"("id"));
      CREATE TABLE "qa_probe_children" ("id" text PRIMARY KEY, "tenant_id" text NOT NULL REFERENCES "tenants"("id"),
        "parent_id" text NOT NULL REFERENCES "qa_probe_parents"("id"))`);
    const body = await createTenant({ name: name('probe') });
    const keep = await createTenant({ name: name('keep') });
    for (const t of [body.tenant_id, keep.tenant_id]) {
      await ctx.dataSource.query(`INSERT INTO "qa_probe_parents" VALUES ($1, $2)`, [`p_${t}`, t]);
      await ctx.dataSource.query(`INSERT INTO "qa_probe_children" VALUES ($1, $2, $3)`, [
        `c_${t}`,
        t,
        `p_${t}`,
      ]);
    }
    const deleted = await ctx.http().delete(`/v1/sandbox/tenants/${body.tenant_id}`).set(admin());
    expect(deleted.status).toBe(200);
    expect(deleted.body.erased).toMatchObject({ qa_probe_parents: 1, qa_probe_children: 1 });
    const owned: Array<{ table_name: string }> = await ctx.dataSource.query(
      `SELECT table_name FROM information_schema.columns WHERE column_name = 'tenant_id' AND table_schema = current_schema()`,
    );
    for (const { table_name } of owned) {
      const [{ n }] = await ctx.dataSource.query(
        `SELECT count(*)::int AS n FROM "${table_name}" WHERE tenant_id = $1`,
        [body.tenant_id],
      );
      expect([table_name, n]).toEqual([table_name, 0]);
    }
    const kept = await ctx.dataSource.query(
      `SELECT count(*)::int AS n FROM "qa_probe_children" WHERE tenant_id = $1`,
      [keep.tenant_id],
    );
    expect(kept[0].n).toBe(1);
    await ctx.http().delete(`/v1/sandbox/tenants/${keep.tenant_id}`).set(admin());
    await ctx.dataSource.query(`DROP TABLE "qa_probe_children"; DROP TABLE "qa_probe_parents"`);
  });

  describe.each([
    ['the token is unset', { SANDBOX_ADMIN_TOKEN: undefined }],
    [
      'APP_ENV is production',
      { APP_ENV: 'production', WEBHOOK_SECRET_KEY: 'w'.repeat(32), DATA_ENCRYPTION_KEY: 'd'.repeat(32) },
    ],
  ])('when %s', (_label, env: Record<string, string | undefined>) => {
    itLocal('every /v1/sandbox route answers 404, token or not', async () => {
      const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
      let other: INestApplication | undefined;
      try {
        for (const [k, v] of Object.entries(env)) {
          if (v === undefined) {
            delete process.env[k];
          } else {
            process.env[k] = v;
          }
        }
        const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
        other = moduleRef.createNestApplication({ bodyParser: false, bufferLogs: true });
        configureApp(other, { swagger: false });
        await other.init();
        const token = saved.SANDBOX_ADMIN_TOKEN ?? process.env.SANDBOX_ADMIN_TOKEN ?? 'x';
        const server = other.getHttpServer();
        for (const res of [
          await request(server)
            .post('/v1/sandbox/tenants')
            .set(admin(token))
            .send({ name: name('no') }),
          await request(server).get('/v1/sandbox/tenants').query({ name_prefix: 'e2e' }).set(admin(token)),
          await request(server).delete('/v1/sandbox/tenants/ten_x').set(admin(token)),
          await request(server).patch('/v1/sandbox/tenants/ten_x').send({}),
        ]) {
          expectSvcError(res, 'SVC-404-001');
        }
      } finally {
        for (const [k, v] of Object.entries(saved)) {
          if (v === undefined) {
            delete process.env[k];
          } else {
            process.env[k] = v;
          }
        }
        await other?.close();
      }
    });
  });

  const admin = (token = adminToken()) => ({ Authorization: `Bearer ${token}` });
  const name = (label: string) => `${runTenantPrefix()}${label}`;

  async function createTenant(body: Record<string, unknown>) {
    const res = await ctx.http().post('/v1/sandbox/tenants').set(admin()).send(body);
    expect(res.status).toBe(201);
    made.push(res.body.tenant_id);
    return res.body;
  }
});
