import 'reflect-metadata';
import { createServer } from 'node:http';
import { Pool } from 'pg';
import { appServer } from 'bench/lib/bench-servers';
import { assetSearchQuery } from 'src/modules/assets/asset-queries';

/**
 * Asset-search bench servers. `app`: the real service. `bare`: node:http and pg only, running the same
 * SQL text (assetSearchQuery) with the same parameters the service binds for a test key of
 * BENCH_TENANT, and answering the rows as JSON: the floor for this query on this machine.
 */
function bare(): Promise<void> {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
  const tenant = process.env.BENCH_TENANT ?? null;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const { text, values } = assetSearchQuery({
      q: url.searchParams.get('q') ?? undefined,
      status: 'active',
      take: limit + 1,
      overrideTenant: tenant,
    });
    pool.query(text, values).then(
      (result) => {
        const body = JSON.stringify({
          object: 'list',
          url: url.pathname,
          has_more: result.rows.length > limit,
          data: result.rows.slice(0, limit),
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      },
      (err: Error) => res.writeHead(500).end(err.message),
    );
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      process.stdout.write(`LISTENING ${(server.address() as { port: number }).port}\n`);
      resolve();
    });
  });
}

(process.argv[2] === 'bare' ? bare() : appServer({ keepAliveTimeoutMs: 60_000 })).catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
