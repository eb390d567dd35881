import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { compareAll, LoadResult, runLoad } from 'bench/lib/load';
import { readQueryCount } from 'bench/lib/query-count';
import { recordTemplates } from 'bench/lib/same-work-server';
import {
  backendCpuSeconds,
  backendCpuUsed,
  cpuSeconds,
  startServer,
  startService,
} from 'bench/lib/server-process';

/**
 * The service (`app`), the bare single-insert server (`bare`) and the same-work server (`same`,
 * bench/lib/same-work-server.ts) of a write bench, side by side: each started from the bench's
 * servers.ts in its own process, its PostgreSQL connections named `bench_<which>` (so its
 * backends' CPU can be read); the service warmed up, its statements for two requests of each path
 * captured for the same-work server, the baselines warmed up, then alternated rounds.
 */
export type Which = 'app' | 'bare' | 'same';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** One POST with an Idempotency-Key; answers the response text (201 expected). */
export async function postWithKey(
  port: number,
  path: string,
  headers: { authorization: string; key: string },
  body: string,
): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: {
      authorization: headers.authorization,
      'idempotency-key': headers.key,
      'content-type': 'application/json',
    },
    body,
  });
  const text = await res.text();
  if (res.status !== 201) {
    throw new Error(`${path}: ${res.status} ${text}`);
  }
  return text;
}

interface Options<T> {
  bench: string;
  url: string;
  authorization: string;
  /** The service's environment beside DATABASE_URL and the bench's own settings. */
  appEnv: Record<string, string>;
  /** Made through the started service: what the load sends (request i to paths[i % n] with body(i)). */
  setUp(appPort: number): Promise<{ paths: string[]; body: (i: number) => string; made: T }>;
  warmup: number;
  total: number;
  rounds: number;
  concurrency: number;
}

function tally() {
  const zero = () => ({ app: 0, bare: 0, same: 0 }) as Record<Which, number>;
  const rounds = { app: [], bare: [], same: [] } as Record<Which, number[]>;
  return { cpu: zero(), dbCpu: zero(), statements: zero(), roundCpu: rounds };
}

/** Starts the three servers, measures them, stops them; resolves with the figures (see report). */
export async function runThreeWay<T>(options: Options<T>) {
  const scratch = (name: string) => join(tmpdir(), `bench-${options.bench}-${process.pid}-${name}`);
  const script = `bench/${options.bench}/servers.ts`;
  const named = (which: Which) => `${options.url}?application_name=bench_${which}`;
  // BENCH_SAME_WORK_TEMPLATES=<file> keeps the captured statements there for reading.
  const templates = process.env.BENCH_SAME_WORK_TEMPLATES ?? scratch('same-work.json');
  // The service as deployed (its node options); the two baselines as plain node processes.
  const start = (which: Which, arg: string, env: Record<string, string> = {}) =>
    (which === 'app' ? startService : startServer)(script, [arg], {
      DATABASE_URL: named(which),
      BENCH_QUERY_COUNT_FILE: scratch(`${which}.count`),
      ...env,
    });
  const servers: Partial<Record<Which, Awaited<ReturnType<typeof startServer>>>> = {};
  servers.app = await start('app', 'app', {
    ...options.appEnv,
    BENCH_CAPTURE_PORT_FILE: scratch('capture.port'),
  });
  servers.bare = await start('bare', 'bare');
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    const { paths, body, made } = await options.setUp(servers.app.port);
    // Statements sent to PostgreSQL (BEGIN and COMMIT included), background work of the service
    // (request-log batches, key reloads) counted with the requests. roundCpu: CPU per request of
    // each measured round (a falling series means a server was still warming up).
    let totals = tally();
    const load = async (which: Which, requests: number): Promise<LoadResult> => {
      const server = servers[which]!;
      const run = randomBytes(6).toString('hex');
      const sentBefore = await readQueryCount(scratch(`${which}.count`));
      const before = cpuSeconds(server.child.pid!);
      const dbBefore = await backendCpuSeconds(admin, `bench_${which}`);
      const result = await runLoad({
        port: server.port,
        path: paths,
        method: 'POST',
        headers: (i) => ({ authorization: options.authorization, 'idempotency-key': `bench-${run}-${i}` }),
        body,
        total: requests,
        concurrency: options.concurrency,
      });
      if (result.statuses[201] !== requests) {
        throw new Error(`${which}: not every request answered 201: ${JSON.stringify(result.statuses)}`);
      }
      const used = cpuSeconds(server.child.pid!) - before;
      totals.cpu[which] += used;
      totals.roundCpu[which].push(Math.round((used / requests) * 1e6));
      totals.dbCpu[which] += backendCpuUsed(dbBefore, await backendCpuSeconds(admin, `bench_${which}`));
      totals.statements[which] += (await readQueryCount(scratch(`${which}.count`))) - sentBefore;
      return result;
    };
    await load('app', options.warmup);
    // The same-work baseline replays what the warm service sent for two requests of each path.
    const captured = await recordTemplates({
      controlPort: Number(readFileSync(scratch('capture.port'), 'utf8')),
      paths,
      send: (path, i) =>
        postWithKey(
          servers.app!.port,
          path,
          { authorization: options.authorization, key: `capture-${i}-${randomBytes(6).toString('hex')}` },
          body(paths.indexOf(path)),
        ),
      file: templates,
    });
    servers.same = await start('same', 'same-work', { BENCH_SAME_WORK_FILE: templates });
    await load('bare', options.warmup);
    await load('same', options.warmup);
    totals = tally();
    const result = await compareAll(options.rounds, {
      app: () => load('app', options.total),
      bare: () => load('bare', options.total),
      same: () => load('same', options.total),
    });
    return { made, report: report(result, totals, result.samples.length * options.total, captured) };
  } finally {
    await admin.end();
    for (const server of Object.values(servers)) {
      await server.stop();
    }
    for (const name of ['app.count', 'bare.count', 'same.count', 'capture.port', 'same-work.json']) {
      rmSync(scratch(name), { force: true });
    }
  }
}

/** The figures every three-way bench prints (each bench names the service's rate and p99 its own way). */
function report(
  result: Awaited<ReturnType<typeof compareAll<Which>>>,
  totals: ReturnType<typeof tally>,
  requests: number,
  captured: Awaited<ReturnType<typeof recordTemplates>>,
) {
  const us = (x: Record<Which, number>, w: Which) => Math.round((x[w] / requests) * 1e6);
  const perRequest = (x: Record<Which, number>) => ({
    app: us(x, 'app'),
    bare: us(x, 'bare'),
    same: us(x, 'same'),
  });
  return {
    rate: result.rate,
    p99ms: result.p99ms,
    cpu: perRequest(totals.cpu),
    dbCpu: perRequest(totals.dbCpu),
    statements: {
      app: Number((totals.statements.app / requests).toFixed(2)),
      bare: Number((totals.statements.bare / requests).toFixed(2)),
      same: Number((totals.statements.same / requests).toFixed(2)),
    },
    roundCpu: totals.roundCpu,
    captured,
    samples: result.samples.map((r) => [r.app, r.bare, r.same]),
    load_average: loadavg().map((x) => Number(x.toFixed(2))),
  };
}
