import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { listeningUrl, useTenant, useTestContext } from '../support/app';
import { fillPlaceholders, matches, Walkthrough, walkthroughs } from '../support/walkthroughs';

/**
 * README.md's walkthroughs run as written: each marked ```sh block, command by command, through bash
 * and curl (as a newcomer pastes them), against the in-process app listening on a loopback port or,
 * in remote mode, the deployed sandbox (`localhost:3000` becomes its address; PK and SK are a fresh
 * demo-like tenant's test keys). Every answer the README shows is checked; the walkthroughs run in
 * README order on one tenant, as a newcomer would follow them.
 */
describe('README walkthroughs', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx, { products: ['market_data', 'cash_management'], fixedIncome: true });
  let base: string;
  let dir: string;
  beforeAll(async () => (base = (await listeningUrl(ctx)).replace(/\/$/, '')));
  beforeAll(() => (dir = curlDirectory()));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('README.md marks the walkthroughs it promises, each with answers to check', () => {
    expect(ALL.map((w) => w.name)).toEqual(EXPECTED);
    for (const w of ALL) {
      expect(w.steps.filter((s) => s.expected).length).toBeGreaterThan(2);
    }
  });

  // Shell variables (INV, ACC, ...) and answers carry from one walkthrough to the next, as in a
  // newcomer's terminal.
  const answers: unknown[] = [];
  const assignments: string[] = [];

  async function runWalkthrough(w: Walkthrough): Promise<void> {
    for (const step of w.steps) {
      const command = fillPlaceholders(step.command, answers).replace(/\blocalhost:3000\b/g, base);
      if (/^[A-Z_]+=\S/.test(command) && !/\bcurl\b/.test(command)) {
        assignments.push(command);
        continue;
      }
      const script = [...assignments, command].join('\n');
      const { stdout } = await run('bash', ['--norc', '--noprofile', '-ec', script], {
        cwd: dir,
        env: {
          PATH: process.env.PATH,
          HOME: dir,
          CURL_HOME: dir,
          PK: tenant.test.publicKey,
          SK: tenant.test.secret,
        },
        maxBuffer: 16 * 1024 * 1024,
      });
      const at = stdout.lastIndexOf(STATUS);
      if (at < 0) {
        continue; // not a curl (printf > file, say)
      }
      const text = stdout.slice(0, at);
      const status = Number(stdout.slice(at + STATUS.length).trim());
      const body: unknown = text.trim() ? JSON.parse(text) : undefined;
      answers.push(body);
      if (step.expected) {
        const where = `${w.name}, README.md:${step.line}: ${step.command.split('\n')[0]}`;
        expect({ where, status, shown: step.expected.text }).toEqual({
          where,
          status: step.expected.status,
          shown: step.expected.text,
        });
        if (step.expected.body !== undefined && !matches(step.expected.body, body)) {
          throw new Error(
            `${where}\nREADME shows: ${step.expected.text}\nthe API answered: ${status} ${text}`,
          );
        }
      }
    }
  }

  /** The walkthroughs README.md must hold, in its order (a renamed or dropped one fails here). */
  const EXPECTED = ['onboarding', 'move-money', 'trade', 'wealth-plan', 'cash-sweep'];
  it.each(EXPECTED)(
    '%s: every command answers what README.md shows',
    async (name) => {
      const w = ALL.find((x) => x.name === name);
      expect(w).toBeDefined();
      await runWalkthrough(w as Walkthrough);
    },
    180_000,
  );

  /** A temporary directory whose .curlrc makes every curl quiet and print the status after the body. */
  function curlDirectory(): string {
    const made = mkdtempSync(join(tmpdir(), 'walkthrough-'));
    writeFileSync(
      join(made, '.curlrc'),
      `silent\nshow-error\nwrite-out = "${STATUS.replace('\n', '\\n')}%{http_code}"\n`,
    );
    return made;
  }
});

const run = promisify(execFile);
const README = readFileSync(resolve(__dirname, '..', '..', 'README.md'), 'utf8');
const ALL = walkthroughs(README);
const STATUS = '\n__http_status__ ';
