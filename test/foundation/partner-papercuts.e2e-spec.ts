import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildProgram } from 'src/cli/main';
import { MIGRATIONS } from 'migrations/index';
import { basic, itLocal, useTenant, useTestContext } from '../support/app';
import { databaseUrl, fileDbPrefix, withAdmin } from '../support/database';
import { expectSvcError } from '../support/errors';
import { createInvestor, JPEG, PDF, PNG, upload, useTempStorage } from '../investors/fixtures';

/** Small things partners hit: each one shown fixed. */
describe('Partner papercuts', () => {
  useTempStorage();
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  let investorId: string;
  beforeAll(async () => (investorId = (await createInvestor(ctx, tenant.test)).id as string));

  describe('uploads sent as application/octet-stream', () => {
    it.each([
      ['application/pdf', 'scan.bin', PDF],
      ['image/png', 'front', PNG],
      ['image/jpeg', 'photo.dat', JPEG],
    ])('are stored and served as %s, the type their magic bytes identify', async (sniffed, name, bytes) => {
      const res = await upload(ctx, tenant.test, investorId, 'passport', {
        bytes,
        name,
        contentType: 'application/octet-stream',
      });
      expect(res.status).toBe(201);
      expect(res.body.content_type).toBe(sniffed);
      const file = await ctx
        .http()
        .get(`/v1/investors/${investorId}/documents/${res.body.id}/download`)
        .set('Authorization', basic(tenant.test))
        .buffer(true)
        .parse(binary);
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toBe(sniffed);
      expect(Buffer.compare(file.body as Buffer, bytes)).toBe(0);
    });

    it('are refused when the bytes are none of PDF, PNG or JPEG', async () => {
      const res = await upload(ctx, tenant.test, investorId, 'passport', {
        bytes: Buffer.from('just some text'),
        name: 'notes.txt',
        contentType: 'application/octet-stream',
      });
      expectSvcError(res, 'SVC-400-001', { param: 'file', message: /content matches none of them/ });
    });

    const binary = (res: any, cb: (err: Error | null, body: Buffer) => void) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    };
  });

  it('/docs/errors renders the catalog’s `code` spans as code, with no backtick left', async () => {
    const res = await ctx.http().get('/docs/errors');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<code>param</code>');
    expect(res.text).not.toContain('`');
  });

  it('request fields with a default are optional and carry no `default` keyword', async () => {
    const spec = (await ctx.http().get('/docs/openapi.json')).body as {
      components: { schemas: Record<string, { properties?: Record<string, any>; required?: string[] }> };
    };
    const create = spec.components.schemas.CreateInvestorDto;
    for (const field of ['currency', 'trading_type', 'enabled_assets']) {
      expect(create.required ?? []).not.toContain(field);
      expect(create.properties![field].default).toBeUndefined();
      expect(create.properties![field].description).toMatch(/Default when omitted: `/);
    }
    expect(spec.components.schemas.UpdateInvestorDto.properties!.currency.description ?? '').not.toMatch(
      /Default when omitted/,
    );
    // No request body schema publishes a required field that has a default.
    for (const schema of Object.values(spec.components.schemas)) {
      for (const name of schema.required ?? []) {
        expect({ name, default: schema.properties?.[name]?.default }).toEqual({ name, default: undefined });
      }
    }
  });

  itLocal('db:migrate reports every migration it applied to a new database, then none', async () => {
    const name = `${fileDbPrefix()}migrate`;
    await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
    const previous = { url: process.env.DATABASE_URL, migrate: process.env.MIGRATE_ON_START };
    process.env.DATABASE_URL = databaseUrl(name);
    // As deployed: an app booting on this database would migrate it at start.
    process.env.MIGRATE_ON_START = 'true';
    const run = async () => {
      const chunks: string[] = [];
      const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
        chunks.push(chunk.toString());
        return true;
      });
      try {
        await buildProgram({ throwOnError: true }).parseAsync(['node', 'cli', 'db:migrate']);
      } finally {
        write.mockRestore();
      }
      return JSON.parse(chunks.join('')) as { applied: string[] };
    };
    try {
      const first = await run();
      expect(first.applied).toHaveLength(MIGRATIONS.length);
      expect(first.applied.length).toBeGreaterThan(0);
      expect(await run()).toEqual({ applied: [] });
    } finally {
      process.env.DATABASE_URL = previous.url;
      process.env.MIGRATE_ON_START = previous.migrate;
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
  });

  it('.dockerignore keeps secrets, local state and build output out of the build context', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    for (const entry of [
      'node_modules',
      '.git',
      '.env',
      '.sandbox-credentials.json',
      'var',
      'dist',
      'coverage',
    ]) {
      expect(ignored).toContain(entry);
    }
    // What the Dockerfile copies from the context exists and is not ignored, so the build still works.
    const copied = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
      .split('\n')
      .filter((line) => /^COPY (?!--from)/.test(line))
      .flatMap((line) =>
        line
          .replace(/^COPY /, '')
          .split(/\s+/)
          .slice(0, -1),
      );
    expect(copied).toEqual(
      expect.arrayContaining([
        'package.json',
        'package-lock.json',
        'tsconfig.json',
        'tsconfig.build.json',
        'src',
      ]),
    );
    for (const path of copied) {
      expect(existsSync(join(ROOT, path))).toBe(true);
      expect(ignored.some((pattern) => pattern === path || pattern === path.split('/')[0])).toBe(false);
    }
  });
});

const ROOT = join(__dirname, '..', '..');
