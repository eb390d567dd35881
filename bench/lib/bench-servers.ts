import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Pool } from 'pg';
import { countQueries } from 'bench/lib/query-count';

/**
 * The two servers a write benchmark compares, each started in its own process by
 * bench/lib/server-process.ts. `bare`: node:http + pg, each POST parsed and inserted in its own
 * transaction (BEGIN, one INSERT into `table`, COMMIT) and answered 201 with JSON carrying the new
 * id as `idField`: the baseline. `app`: the real service.
 *
 * Both count the statements they send to PostgreSQL when BENCH_QUERY_COUNT_FILE is set (written
 * there on SIGUSR2), so a bench can report round trips per request.
 */
export async function bareInsertServer(table: string, idField: string): Promise<void> {
  countQueries();
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        const id = randomUUID();
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query(`INSERT INTO ${table} (id, path, body) VALUES ($1, $2, $3)`, [
            id,
            req.url,
            body,
          ]);
          await client.query('COMMIT');
        } finally {
          client.release();
        }
        res
          .writeHead(201, { 'content-type': 'application/json' })
          .end(JSON.stringify({ [idField]: id, ...body }));
      })().catch(() => res.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.stdout.write(`LISTENING ${(server.address() as { port: number }).port}\n`);
}

/**
 * The real service on a loopback port. `keepAliveTimeoutMs`: as a bare server's, so a request that
 * holds the loop for seconds (a slow first request under valgrind) does not reset the next one's
 * keep-alive connection.
 */
export async function appServer(options: { keepAliveTimeoutMs?: number } = {}): Promise<void> {
  countQueries();
  if (process.env.BENCH_CAPTURE_PORT_FILE) {
    // The statements of a request, for the same-work baseline (bench/lib/same-work.ts).
    const { serveStatementCapture } = await import('bench/lib/same-work');
    await serveStatementCapture(process.env.BENCH_CAPTURE_PORT_FILE);
  }
  const { NestFactory } = await import('@nestjs/core');
  const { AppModule } = await import('src/app.module');
  const { configureApp } = await import('src/app.setup');
  const { ServiceExpressAdapter } = await import('src/core/http/service-express-adapter');
  const nest = await NestFactory.create(AppModule, new ServiceExpressAdapter(), {
    bufferLogs: true,
    bodyParser: false,
  });
  configureApp(nest, { swagger: false });
  await nest.listen(0, '127.0.0.1');
  if (options.keepAliveTimeoutMs !== undefined) {
    (nest.getHttpServer() as { keepAliveTimeout: number }).keepAliveTimeout = options.keepAliveTimeoutMs;
  }
  if (process.env.BENCH_LOOP_STATS) {
    // Event-loop delay and GC pauses per second (bench/lib/loop-stats.ts).
    const { recordLoopStats } = await import('bench/lib/loop-stats');
    recordLoopStats(process.env.BENCH_LOOP_STATS);
  }
  if (process.env.BENCH_PROFILE) {
    // CPU profile of the service under load (written when the bench stops it).
    const { Session } = await import('node:inspector');
    const session = new Session();
    session.connect();
    session.post('Profiler.enable', () => session.post('Profiler.start'));
    process.once('SIGTERM', () =>
      session.post('Profiler.stop', (_err, { profile }) => {
        writeFileSync(process.env.BENCH_PROFILE as string, JSON.stringify(profile));
        process.exit(0);
      }),
    );
  }
  if (process.env.BENCH_HEAP_PROFILE) {
    // Sampled allocations of the service under load, the collected ones included (what keeps the
    // garbage collector busy), written when the bench stops it.
    const { Session } = await import('node:inspector');
    const session = new Session();
    session.connect();
    session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    } as object);
    process.once('SIGTERM', () =>
      session.post('HeapProfiler.stopSampling', (_err, { profile }) => {
        writeFileSync(process.env.BENCH_HEAP_PROFILE as string, JSON.stringify(profile));
        process.exit(0);
      }),
    );
  }
  process.stdout.write(`LISTENING ${(nest.getHttpServer().address() as { port: number }).port}\n`);
}

/**
 * The entry of a bench's servers.ts: `bare`, `same-work` (bench/lib/same-work-server.ts, replaying
 * the templates in BENCH_SAME_WORK_FILE) or `app` as the first argument.
 */
export function runBenchServer(table: string, idField: string): void {
  const which = process.argv[2];
  const started =
    which === 'bare'
      ? bareInsertServer(table, idField)
      : which === 'same-work'
        ? import('bench/lib/same-work-server').then((m) =>
            m.sameWorkServer(process.env.BENCH_SAME_WORK_FILE!),
          )
        : appServer();
  started.catch((err: unknown) => {
    process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  });
}
