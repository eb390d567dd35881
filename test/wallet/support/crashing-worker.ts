import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { JobRegistry } from 'src/core/scheduler/job-registry';
import { JobRunner } from 'src/core/scheduler/job-runner.service';
import { SETTLE_JOB } from 'src/modules/transfers/transfer-lifecycle.service';
import { WorkerModule } from 'src/worker.module';
import { writeWorkerReady } from 'src/worker-ready';

/**
 * The real worker process (WorkerModule), for the crash tests. With CRASH=after_commit it dies
 * (SIGKILL, no clean-up) right after the first settlement job committed, before the queue hears of
 * it; with CRASH=before_commit it dies inside that job's transaction, after the ledger was written.
 */
async function main(): Promise<void> {
  const app = await NestFactory.createApplicationContext(WorkerModule, {
    logger: false,
    abortOnError: false,
  });
  const crash = process.env.CRASH;
  if (crash === 'after_commit' || crash === 'before_commit') {
    const handler = app.get(JobRegistry).get(SETTLE_JOB);
    const run = handler.run.bind(handler);
    let settledHere = false;
    handler.run = async (manager, job) => {
      await run(manager, job);
      settledHere = true;
      if (crash === 'before_commit') {
        process.kill(process.pid, 'SIGKILL');
      }
    };
    const runner = app.get(JobRunner);
    const runOne = runner.runOne.bind(runner);
    runner.runOne = async (id, at) => {
      const outcome = await runOne(id, at);
      if (settledHere) {
        process.kill(process.pid, 'SIGKILL');
      }
      return outcome;
    };
  }
  writeWorkerReady(app);
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
