import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basic, isRemote, TestContext, TestCredentials, TestTenant } from '../support/app';

/**
 * Uploaded documents of this test file go to a fresh directory, removed after the file's tests.
 * Call it in the describe body: the configuration is read when the app is created.
 */
export function useTempStorage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'investor-docs-'));
  process.env.STORAGE_DIR = dir;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n'),
  Buffer.from('%%EOF\n'),
]);
export const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);
export const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]);

/** A valid POST /v1/investors body: a US tax resident, with overrides merged one level deep. */
export function investorBody(overrides: Record<string, unknown> = {}): Record<string, any> {
  const base: Record<string, any> = {
    identity: {
      first_name: 'Ada',
      last_name: 'Obi',
      date_of_birth: '1990-04-12',
      country_of_citizenship: 'US',
      country_of_birth: 'NG',
      tax_id_type: 'USA_SSN',
      tax_id: '123-45-6789',
      country_of_tax_residence: 'US',
      funding_source: ['employment_income'],
    },
    contact: {
      email_address: `ada.${Math.random().toString(36).slice(2, 10)}@example.com`,
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
      is_politically_exposed: false,
      immediate_family_exposed: false,
    },
    metadata: { partner_user_id: 'u_1029' },
  };
  for (const [key, value] of Object.entries(overrides)) {
    base[key] =
      value &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      base[key] &&
      typeof base[key] === 'object'
        ? { ...base[key], ...value }
        : value;
  }
  return base;
}

export const CUSTOMER_AGREEMENT = {
  agreement: 'customer_agreement',
  revision: '2025-06',
  ip_address: '203.0.113.7',
};

export async function createInvestor(
  ctx: TestContext,
  creds: TestCredentials,
  overrides: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const res = await ctx
    .http()
    .post('/v1/investors')
    .set('Authorization', basic(creds))
    .send(investorBody(overrides));
  if (res.status !== 201) {
    throw new Error(`investor creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body as Record<string, any>;
}

export function upload(
  ctx: TestContext,
  creds: TestCredentials,
  investorId: string,
  type: string,
  file: { bytes: Buffer; name: string; contentType: string },
) {
  return ctx
    .http()
    .post(`/v1/investors/${investorId}/documents`)
    .set('Authorization', basic(creds))
    .field('type', type)
    .attach('file', file.bytes, { filename: file.name, contentType: file.contentType });
}

/** Uploads a passport and accepts the customer agreement: everything KYC needs for a US resident. */
export async function prepareForKyc(
  ctx: TestContext,
  creds: TestCredentials,
  investorId: string,
): Promise<void> {
  const doc = await upload(ctx, creds, investorId, 'passport', {
    bytes: PDF,
    name: 'passport.pdf',
    contentType: 'application/pdf',
  });
  if (doc.status !== 201) {
    throw new Error(`upload failed: ${doc.status} ${JSON.stringify(doc.body)}`);
  }
  const accepted = await ctx
    .http()
    .post(`/v1/investors/${investorId}/agreements`)
    .set('Authorization', basic(creds))
    .send({ agreements: [CUSTOMER_AGREEMENT] });
  if (accepted.status !== 200) {
    throw new Error(`agreements failed: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  }
}

type EventRecord = { event: string; livemode: boolean; data: Record<string, any> };

/** Events of a tenant (both modes), oldest first: from the table locally, from GET /v1/events remotely. */
export async function eventsOf(ctx: TestContext, tenant: TestTenant): Promise<EventRecord[]> {
  if (!isRemote) {
    return ctx.dataSource.query(
      'SELECT event, livemode, data FROM events WHERE tenant_id = $1 ORDER BY created_at, id',
      [tenant.tenantId],
    );
  }
  const all: Array<EventRecord & { timestamp: string }> = [];
  for (const creds of [tenant.test, tenant.live]) {
    let after: string | undefined;
    for (;;) {
      const res = await ctx
        .http()
        .get('/v1/events')
        .query({ limit: 100, ...(after ? { starting_after: after } : {}) })
        .set('Authorization', basic(creds));
      if (res.status !== 200) {
        throw new Error(`GET /v1/events answered ${res.status}: ${res.text}`);
      }
      // Newest first: reversed, each page lands before the older ones already read.
      all.push(...(res.body.data as Array<EventRecord & { id: string; timestamp: string }>));
      if (!res.body.has_more) {
        break;
      }
      after = res.body.data[res.body.data.length - 1].id;
    }
  }
  return all
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.timestamp.localeCompare(b.e.timestamp) || b.i - a.i)
    .map(({ e }) => ({ event: e.event, livemode: e.livemode, data: e.data }));
}

/** Issues an investor-scoped key through the API and returns it as credentials. */
export async function investorKey(
  ctx: TestContext,
  creds: TestCredentials,
  investorId: string,
): Promise<TestCredentials> {
  const res = await ctx
    .http()
    .post(`/v1/investors/${investorId}/api-keys`)
    .set('Authorization', basic(creds))
    .send({ name: 'investor app' });
  if (res.status !== 201) {
    throw new Error(`key creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return { id: res.body.id, publicKey: res.body.public_key, secret: res.body.secret };
}

/** A supertest parser collecting a binary body (supertest buffers only text types itself). */
export function binary(res: any, cb: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
}
