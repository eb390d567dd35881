import { nodeFlagsOf, serviceNodeFlags } from 'bench/lib/server-process';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The options node runs the service with (README, "Node's options"): `npm start` names them, and every
 * other way the service is started (the worker script, the Docker image, the remote QA run, the
 * benches) gives node the same, so what is measured is what is deployed.
 */
const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
const DEPLOYED = ['--max-semi-space-size=64'];

describe('the node options the service runs with', () => {
  it('are a young generation of up to 64 MB a semi-space, for the API and the worker alike', () => {
    expect(nodeFlagsOf(scripts.start)).toEqual(DEPLOYED);
    expect(nodeFlagsOf(scripts['start:worker'])).toEqual(DEPLOYED);
    expect(scripts.start).toMatch(/ dist\/src\/main\.js$/);
    expect(scripts['start:worker']).toMatch(/ dist\/src\/worker\.js$/);
  });

  it('are the Docker image’s NODE_OPTIONS, so every node command of docker-compose has them', () => {
    const set = /^ENV NODE_OPTIONS=(.+)$/m.exec(read('Dockerfile'));
    expect(set?.[1].split(' ')).toEqual(DEPLOYED);
    // Set in the runtime stage, after its FROM, where the CMD runs.
    const dockerfile = read('Dockerfile');
    expect(dockerfile.lastIndexOf('FROM ')).toBeLessThan(dockerfile.indexOf('ENV NODE_OPTIONS='));
  });

  it('start the API of the remote QA run', () => {
    const line = read('scripts/qa-remote.sh')
      .split('\n')
      .find((l) => l.includes('dist/src/main.js'));
    expect(nodeFlagsOf(line!.slice(line!.indexOf(' node ')))).toEqual(DEPLOYED);
  });

  it('are the options the benches start the service with, unless BENCH_SERVICE_NODE_FLAGS says others', () => {
    const chosen = process.env.BENCH_SERVICE_NODE_FLAGS;
    try {
      delete process.env.BENCH_SERVICE_NODE_FLAGS;
      expect(serviceNodeFlags()).toEqual(DEPLOYED);
      process.env.BENCH_SERVICE_NODE_FLAGS = '';
      expect(serviceNodeFlags()).toEqual([]);
      process.env.BENCH_SERVICE_NODE_FLAGS = ' --max-semi-space-size=32  --stack-size=2000 ';
      expect(serviceNodeFlags()).toEqual(['--max-semi-space-size=32', '--stack-size=2000']);
    } finally {
      if (chosen === undefined) {
        delete process.env.BENCH_SERVICE_NODE_FLAGS;
      } else {
        process.env.BENCH_SERVICE_NODE_FLAGS = chosen;
      }
    }
  });

  it('are accepted by this node on its command line and in NODE_OPTIONS (an option NODE_OPTIONS refuses stops node)', () => {
    const onCommandLine = spawnSync(process.execPath, [...DEPLOYED, '-e', 'process.exit(0)']);
    expect(onCommandLine.status).toBe(0);
    const inEnvironment = spawnSync(process.execPath, ['-e', 'process.exit(0)'], {
      env: { ...process.env, NODE_OPTIONS: DEPLOYED.join(' ') },
    });
    expect({ status: inEnvironment.status, stderr: inEnvironment.stderr.toString() }).toEqual({
      status: 0,
      stderr: '',
    });
    // What NODE_OPTIONS refuses, for contrast (the check above would see it).
    const refused = spawnSync(process.execPath, ['-e', 'process.exit(0)'], {
      env: { ...process.env, NODE_OPTIONS: '--trace-gc-nvp' },
    });
    expect(refused.status).not.toBe(0);
  });

  it('reads the options of a command line up to its script', () => {
    expect(nodeFlagsOf('NODE_PATH=dist node --a=1 -b dist/x.js --not-mine')).toEqual(['--a=1', '-b']);
    expect(nodeFlagsOf('node dist/x.js')).toEqual([]);
    expect(() => nodeFlagsOf('npm run x')).toThrow(/No node command/);
  });
});
