import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** Starts a TypeScript script of the repository in its own node process. */
function spawnScript(
  script: string,
  args: string[],
  env: Record<string, string>,
  nodeArgs: string[],
): ChildProcess {
  // With BENCH_BUILD_DIR (`npx tsc -p tsconfig.json --outDir <dir>`) the server runs as deployed,
  // compiled: under ts-node every process also pays for its require hook, its source-map lookups
  // and Node's domain machinery (ts-node loads `domain`, which wraps every EventEmitter's emit).
  const build = process.env.BENCH_BUILD_DIR;
  const entry = build
    ? [join(build, script.replace(/\.ts$/, '.js'))]
    : ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', join(ROOT, script)];
  return spawn(process.execPath, [...nodeArgs, ...entry, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...(build ? { NODE_PATH: build } : {}), LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/**
 * Runs a TypeScript script to its end in its own process and resolves with the last line it
 * printed, parsed as JSON (a load generator's figures).
 */
export function runScript<T>(script: string, args: string[], env: Record<string, string> = {}): Promise<T> {
  const child = spawnScript(script, args, env, []);
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code === 0 && last) {
        resolve(JSON.parse(last) as T);
      } else {
        reject(new Error(`${script} exited with ${code}`));
      }
    });
  });
}

/**
 * Starts a TypeScript server script in its own process (so the load generator and the server
 * do not share an event loop) and resolves with the port it prints as `LISTENING <port>`.
 */
export function startServer(
  script: string,
  args: string[],
  env: Record<string, string> = {},
  /** Options for node itself, such as `--cpu-prof`. */
  nodeArgs: string[] = [],
): Promise<{ port: number; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawnScript(script, args, env, nodeArgs);
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /LISTENING (\d+)/.exec(out);
      if (match) {
        // From here on the server's output (its request logs) is drained and dropped.
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve({
          port: Number(match[1]),
          child,
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before listening`)));
  });
}

/**
 * The options `npm start` gives node (package.json's start script), so a bench runs the service as
 * deployed. BENCH_SERVICE_NODE_FLAGS, when set, stands in for them ('' for none): the same build
 * measured with and without.
 */
export function serviceNodeFlags(): string[] {
  const chosen = process.env.BENCH_SERVICE_NODE_FLAGS;
  if (chosen !== undefined) {
    return chosen.split(/\s+/).filter(Boolean);
  }
  const pkg = JSON.parse(readFileSync(packageJson(), 'utf8')) as { scripts: { start: string } };
  return nodeFlagsOf(pkg.scripts.start);
}

/** The repository's package.json, from here or from a build of the benches (BENCH_BUILD_DIR) inside it. */
function packageJson(): string {
  for (let dir = ROOT; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) {
      return join(dir, 'package.json');
    }
    if (dirname(dir) === dir) {
      throw new Error(`No package.json above ${ROOT}`);
    }
  }
}

/** The options between `node` and the script in a shell command line (`NODE_PATH=dist node --x a.js`). */
export function nodeFlagsOf(command: string): string[] {
  const words = command.trim().split(/\s+/);
  const node = words.indexOf('node');
  if (node < 0) {
    throw new Error(`No node command in '${command}'`);
  }
  const flags: string[] = [];
  for (const word of words.slice(node + 1)) {
    if (!word.startsWith('-')) {
      break;
    }
    flags.push(word);
  }
  return flags;
}

/** startServer for a script that runs the service (the API or the worker): with serviceNodeFlags. */
export function startService(
  script: string,
  args: string[],
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): ReturnType<typeof startServer> {
  return startServer(script, args, env, [...serviceNodeFlags(), ...nodeArgs]);
}

/**
 * CPU seconds (user + system) a process has used, from /proc (with `thread`, that one of its threads). Comparing CPU per request of
 * two servers is steadier than comparing their rates on a busy machine.
 */
export function cpuSeconds(pid: number, thread?: number): number {
  const { user, system } = cpuSecondsSplit(pid, thread);
  return user + system;
}

/** cpuSeconds in its two parts: in the process itself (user) and in the kernel for it (system). */
export function cpuSecondsSplit(pid: number, thread?: number): { user: number; system: number } {
  const file = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
  const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
  // Fields 14 and 15 of stat (utime, stime), counted from the state field (3) here.
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}

/**
 * CPU seconds used so far by the PostgreSQL backends serving connections named
 * `applicationName` (`?application_name=` in the server's DATABASE_URL), per backend pid. The
 * difference of two readings is the database's share of the work in between (a backend that
 * exits in between is missed).
 */
export async function backendCpuSeconds(
  admin: { query(sql: string, params: unknown[]): Promise<{ rows: Array<{ pid: number }> }> },
  applicationName: string,
): Promise<Map<number, number>> {
  const { rows } = await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [
    applicationName,
  ]);
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      cpu.set(pid, cpuSeconds(pid));
    } catch {
      // exited since
    }
  }
  return cpu;
}

/** The CPU seconds the backends used between two readings of backendCpuSeconds. */
export function backendCpuUsed(before: Map<number, number>, after: Map<number, number>): number {
  let used = 0;
  for (const [pid, seconds] of after) {
    used += seconds - (before.get(pid) ?? 0);
  }
  return used;
}
