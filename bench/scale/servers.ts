import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { appServer } from 'bench/lib/bench-servers';
import { countQueries } from 'bench/lib/query-count';
import { AppLogger } from 'src/core/logging/app-logger';

/**
 * The processes of bench/scale, each started in its own node process by
 * bench/lib/server-process.ts. `api`: the service's HTTP API (bench/lib/bench-servers.ts), run with
 * WORKER_IN_PROCESS=false by the bench. `worker`: the worker process as src/worker.ts starts it
 * (WorkerModule: queue consumers, outbox and scheduled-job relays, clock-driven jobs), which serves
 * no HTTP; it prints `LISTENING 0` once started so the bench knows it is up.
 */
async function worker(): Promise<void> {
  countQueries(); // as appServer does, when BENCH_QUERY_COUNT_FILE is set
  const { WorkerModule } = await import('src/worker.module');
  const app = await NestFactory.createApplicationContext(WorkerModule, { bufferLogs: true });
  app.useLogger(app.get(AppLogger));
  app.enableShutdownHooks();
  process.stdout.write('LISTENING 0\n');
}

(process.argv[2] === 'worker' ? worker() : appServer()).catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
