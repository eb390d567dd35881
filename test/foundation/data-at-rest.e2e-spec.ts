import { createHash } from 'node:crypto';
import { EncryptTaxIds1763831000000 } from 'migrations/1763831000000-encrypt-tax-ids';
import { SealIdempotentResponses1763831000001 } from 'migrations/1763831000001-seal-idempotent-responses';
import { WebhookSecrets } from 'src/modules/webhooks/webhook-secrets';
import { basic, isRemote, itLocal, useTenant, useTestContext } from '../support/app';
import { createInvestor, investorBody } from '../investors/fixtures';

const TAX_ID = '287-65-4321';
const SEALED = /^v1:[A-Za-z0-9_-]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/;

describe('Secrets and tax ids are never stored in clear', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);

  it('tax ids, API key secrets and webhook secrets appear in no table; replays still show them', async () => {
    const investor = await post(
      '/v1/investors',
      'rest-investor',
      investorBody({ identity: { tax_id: TAX_ID } }),
    );
    expect(investor.status).toBe(201);
    expect(investor.body.identity.tax_id).toBe('*****4321');
    const apiKey = await post(`/v1/investors/${investor.body.id}/api-keys`, 'rest-key', { name: 'app' });
    expect(apiKey.body.secret).toMatch(/^sk_test_/);
    const webhook = await post('/v1/webhooks', 'rest-webhook', {
      name: 'rest',
      url: 'http://127.0.0.1:3299/hooks',
      eventTypeNames: ['order.*'],
    });
    const rotated = await post(`/v1/webhooks/${webhook.body.id}/rotate-secret`, 'rest-rotate');
    expect([webhook.body.secret, rotated.body.secret]).toEqual([
      expect.stringMatching(/^whsec_/),
      expect.stringMatching(/^whsec_/),
    ]);

    const read = await ctx
      .http()
      .get(`/v1/investors/${investor.body.id}`)
      .set('Authorization', basic(tenant.test));
    expect(read.body.identity.tax_id).toBe('*****4321');
    if (!isRemote) {
      // The scan finds what is there: the investor's id is in its own table.
      expect(await tablesHolding([investor.body.id])).toEqual(
        expect.arrayContaining(['investors', 'events']),
      );
      const secrets = [apiKey.body.secret, webhook.body.secret, rotated.body.secret];
      expect(await tablesHolding([TAX_ID, TAX_ID.replace(/-/g, ''), ...secrets])).toEqual([]);

      const [account] = await ctx.dataSource.query(
        `SELECT tax_id_ciphertext, tax_id_last4 FROM investment_accounts WHERE investor_id = $1`,
        [investor.body.id],
      );
      expect(account).toEqual({ tax_id_ciphertext: expect.stringMatching(SEALED), tax_id_last4: '4321' });
      const [key] = await ctx.dataSource.query(`SELECT secret_hash FROM api_keys WHERE id = $1`, [
        apiKey.body.id,
      ]);
      expect(key.secret_hash).toBe(createHash('sha256').update(apiKey.body.secret).digest('hex'));
      const [endpoint] = await ctx.dataSource.query(
        `SELECT secret_ciphertext, previous_secret_ciphertext FROM webhook_endpoints WHERE id = $1`,
        [webhook.body.id],
      );
      const box = ctx.app!.get(WebhookSecrets);
      expect([box.open(endpoint.secret_ciphertext), box.open(endpoint.previous_secret_ciphertext)]).toEqual([
        rotated.body.secret,
        webhook.body.secret,
      ]);
      for (const idem of ['rest-investor', 'rest-key', 'rest-webhook', 'rest-rotate']) {
        expect(await keyRows(idem)).toEqual([
          { state: 'completed', response_body_sealed: expect.stringMatching(SEALED) },
        ]);
      }
      // The stored responses hold personal data too: sealed, the e-mail address is not readable either.
      expect(await tablesHolding([investor.body.contact.email_address])).not.toContain('idempotency_keys');
    }

    const replayedKey = await post(`/v1/investors/${investor.body.id}/api-keys`, 'rest-key', {
      name: 'app',
    });
    expect(replayedKey.headers['idempotent-replayed']).toBe('true');
    expect(replayedKey.body).toEqual(apiKey.body);
    const replayedRotation = await post(`/v1/webhooks/${webhook.body.id}/rotate-secret`, 'rest-rotate');
    expect(replayedRotation.body).toEqual(rotated.body);
  });

  itLocal('the migrations seal tax ids and stored responses that were kept in clear', async () => {
    const investor = await createInvestor(ctx, tenant.test, { identity: { tax_id: TAX_ID } });
    const created = await post(`/v1/investors/${investor.id}/api-keys`, 'migrated-key', { name: 'old' });
    const runner = ctx.dataSource.createQueryRunner();
    try {
      // Back to the schema before encryption: tax ids and stored responses in clear.
      await new SealIdempotentResponses1763831000001().down(runner);
      await new EncryptTaxIds1763831000000().down(runner);
      const [plain] = await runner.query(`SELECT tax_id FROM investment_accounts WHERE investor_id = $1`, [
        investor.id,
      ]);
      expect(plain.tax_id).toBe(TAX_ID);
      const [stored] = await runner.query(
        `SELECT response_body FROM idempotency_keys WHERE key = 'migrated-key'`,
      );
      expect(stored.response_body.secret).toBe(created.body.secret);

      await new EncryptTaxIds1763831000000().up(runner);
      await new SealIdempotentResponses1763831000001().up(runner);
    } finally {
      await runner.release();
    }
    expect(await tablesHolding([TAX_ID, created.body.secret])).toEqual([]);
    const [account] = await ctx.dataSource.query(
      `SELECT tax_id_ciphertext, tax_id_last4 FROM investment_accounts WHERE investor_id = $1`,
      [investor.id],
    );
    expect(account).toEqual({ tax_id_ciphertext: expect.stringMatching(SEALED), tax_id_last4: '4321' });
    const read = await ctx
      .http()
      .get(`/v1/investors/${investor.id}`)
      .set('Authorization', basic(tenant.test));
    expect(read.body.identity.tax_id).toBe('*****4321');
    const replay = await post(`/v1/investors/${investor.id}/api-keys`, 'migrated-key', { name: 'old' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.secret).toBe(created.body.secret);
  });

  const post = (path: string, key: string, body: object = {}) =>
    ctx.http().post(path).set('Authorization', basic(tenant.test)).set('Idempotency-Key', key).send(body);

  /** Tables (of every table in the database) holding any of the values in their text form. */
  async function tablesHolding(values: string[]): Promise<string[]> {
    const tables: Array<{ table_name: string }> = await ctx.dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    const found: string[] = [];
    for (const { table_name: table } of tables) {
      const [{ n }] = await ctx.dataSource.query(
        `SELECT count(*)::int AS n FROM "${table}" t WHERE EXISTS (SELECT 1 FROM unnest($1::text[]) v WHERE strpos(t::text, v) > 0)`,
        [values],
      );
      if (n > 0) {
        found.push(table);
      }
    }
    return found;
  }

  const keyRows = (key: string) =>
    ctx.dataSource.query(
      `SELECT state, response_body_sealed FROM idempotency_keys WHERE tenant_id = $1 AND key = $2`,
      [tenant.tenantId, key],
    );
});
