import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Pool } from 'pg';

/**
 * Bench servers. `bare`: node:http + pg, each POST parsed and inserted in its own transaction
 * (BEGIN, one INSERT, COMMIT) and answered 201 with JSON: the baseline. `app`: the real service.
 */
async function bare(): Promise<void> {
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
          await client.query('INSERT INTO bench_orders (id, path, body) VALUES ($1, $2, $3)', [
            id,
            req.url,
            body,
          ]);
          await client.query('COMMIT');
        } finally {
          client.release();
        }
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id, ...body }));
      })().catch(() => res.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.stdout.write(`LISTENING ${(server.address() as { port: number }).port}\n`);
}

/**
 * BENCH_QUERY_CENSUS=<file>: every statement the service sends is counted by its text (values left
 * out) and the counts are written when the bench stops it: the round trips of a placement.
 */
async function countQueries(file: string): Promise<void> {
  const { Client } = await import('pg');
  const { writeFileSync } = await import('node:fs');
  const counts = new Map<string, number>();
  const query = Client.prototype.query as (...args: unknown[]) => unknown;
  Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string })?.text);
    const key = text.replace(/\s+/g, ' ').slice(0, 160);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return query.apply(this, args);
  } as typeof Client.prototype.query;
  process.once('SIGTERM', () => {
    const lines = [...counts].sort((a, b) => b[1] - a[1]).map(([text, n]) => `${n}\t${text}`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    if (!process.env.BENCH_PROFILE) {
      process.exit(0); // otherwise the profile's writer exits once it is written
    }
  });
}

async function app(): Promise<void> {
  if (process.env.BENCH_QUERY_CENSUS) {
    await countQueries(process.env.BENCH_QUERY_CENSUS);
  }
  const { NestFactory } = await import('@nestjs/core');
  const { AppModule } = await import('src/app.module');
  const { configureApp } = await import('src/app.setup');
  const nest = await NestFactory.create(AppModule, { bufferLogs: true, bodyParser: false });
  configureApp(nest, { swagger: false });
  await nest.listen(0, '127.0.0.1');
  if (process.env.BENCH_PROFILE) {
    // CPU profile of the service under load (written when the bench stops it).
    const { Session } = await import('node:inspector');
    const { writeFileSync } = await import('node:fs');
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
  process.stdout.write(`LISTENING ${(nest.getHttpServer().address() as { port: number }).port}\n`);
}

(process.argv[2] === 'bare' ? bare() : app()).catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
