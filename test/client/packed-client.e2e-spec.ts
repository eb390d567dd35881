import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLIENT_DIR, loadClientPackage } from './support/client-package';

/**
 * What a partner does: \`npm pack\` in clients/typescript, install the tarball in an empty project,
 * type-check a program with tsc --strict (ES module and CommonJS, the oldest and the current
 * TypeScript), and load both builds.
 */
describe('the packed client in an empty project', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'client-consumer-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('was generated from the committed openapi/openapi.yaml (npm run generate after every change to it)', () => {
    const check = () =>
      execFileSync(process.execPath, ['scripts/generate.mjs', '--check'], { cwd: CLIENT_DIR, stdio: 'pipe' });
    expect(check().toString()).toContain('matches openapi/openapi.yaml');
  }, 60_000);

  it('installs from its tarball and type-checks a strict program with TypeScript 5.0 and today’s', () => {
    // The build scripts/test.sh made is what gets packed: prepack's rebuild would delete dist/
    // while other test files (run in parallel) load the package from it.
    loadClientPackage();
    execFileSync(npm, ['pack', '--ignore-scripts', '--pack-destination', dir], {
      cwd: CLIENT_DIR,
      stdio: 'pipe',
    });
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz')) as string;
    expect(tarball).toMatch(/^investment-service-client-\d+\.\d+\.\d+\.tgz$/);
    const project = join(dir, 'app');
    execFileSync('mkdir', ['-p', project]);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'app', private: true, type: 'module' }),
    );
    execFileSync(
      npm,
      [
        'install',
        '--no-fund',
        '--no-audit',
        '--prefer-offline',
        join(dir, tarball),
        `typescript@${OLDEST_TYPESCRIPT}`,
      ],
      { cwd: project, stdio: 'pipe' },
    );
    writeFileSync(join(project, 'esm.mts'), PROGRAM);
    writeFileSync(join(project, 'cjs.cts'), PROGRAM);
    const strict = [
      '--strict',
      '--noEmit',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--lib',
      'es2022,dom,dom.iterable',
    ];
    const files = ['esm.mts', 'cjs.cts'];
    const oldest = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    const current = join(__dirname, '..', '..', 'node_modules', 'typescript', 'bin', 'tsc');
    // TypeScript 5.0 rejects declarations inside openapi-fetch itself, so the oldest check skips
    // library declarations (tsc --init's default); the program is strict either way.
    execFileSync(process.execPath, [oldest, ...strict, '--skipLibCheck', ...files], {
      cwd: project,
      stdio: 'pipe',
    });
    execFileSync(process.execPath, [current, ...strict, ...files], { cwd: project, stdio: 'pipe' });

    // A type error is caught: the check above is not vacuous.
    writeFileSync(join(project, 'wrong.mts'), PROGRAM.replace("investor_id: 'inv_1'", 'investor_id: 1'));
    expect(() =>
      execFileSync(process.execPath, [current, ...strict, 'wrong.mts'], { cwd: project, stdio: 'pipe' }),
    ).toThrow();

    // Both builds load and export the same names.
    const names = (code: string, ext: string) => {
      writeFileSync(join(project, `names.${ext}`), code);
      return execFileSync(process.execPath, [`names.${ext}`], { cwd: project })
        .toString()
        .trim();
    };
    const esm = names(
      "import * as c from '@investment-service/client'; console.log(Object.keys(c).sort().join())",
      'mjs',
    );
    const cjs = names("console.log(Object.keys(require('@investment-service/client')).sort().join())", 'cjs');
    expect(esm).toBe(
      'InvestmentServiceError,WebhookVerificationError,createClient,signWebhook,verifyWebhook',
    );
    expect(cjs).toBe(esm);
  }, 420_000);
});

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The oldest TypeScript the package promises to type-check with (clients/typescript/README.md). */
const OLDEST_TYPESCRIPT = '5.0.4';

/** A partner's program, checked with tsc --strict: every name of the package root, typed use. */
const PROGRAM = `
import {
  createClient,
  verifyWebhook,
  InvestmentServiceError,
  WebhookVerificationError,
  type EventRecord,
  type components,
} from '@investment-service/client';

type Investor = components['schemas']['InvestorDto'];

export async function firstDay(baseUrl: string): Promise<string[]> {
  const client = createClient({ baseUrl, publicKey: 'pk_test_x', secret: 'sk_test_x' });
  const bearer = createClient({ baseUrl, token: 'eyJ...' });
  const { data, error } = await client.GET('/v1/investors/{investor_id}', {
    params: { path: { investor_id: 'inv_1' } },
  });
  if (error) {
    const code: string = error.error.code;
    throw new Error(code);
  }
  const investor: Investor = data;
  const ids: string[] = [investor.id];
  for await (const order of client.paginate('/v1/investors/{investor_id}/orders', {
    params: { path: { investor_id: investor.id }, query: { limit: 10 } },
  })) {
    ids.push(order.id);
  }
  for await (const order of bearer.paginate('/v1/trading/accounts/{account_id}/orders', {
    params: { path: { account_id: investor.account_id } },
  })) {
    ids.push(order.id);
  }
  for await (const event of client.events.stream({ types: ['order.filled'], sinceId: 'evt_1' })) {
    const record: EventRecord = event;
    ids.push(record.id);
    break;
  }
  try {
    const event = await verifyWebhook({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', headers: new Headers(), body: '{}' });
    ids.push(event.id);
  } catch (err) {
    if (err instanceof WebhookVerificationError || err instanceof InvestmentServiceError) {
      ids.push(err.message);
    }
  }
  return ids;
}
`;
