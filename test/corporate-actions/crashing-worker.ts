import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { Applications } from 'src/modules/corporate-actions/applications';
import { CorporateActionJobs } from 'src/modules/corporate-actions/corporate-action-jobs';
import { Reorganizations } from 'src/modules/corporate-actions/reorganizations';
import { WorkerModule } from 'src/worker.module';

/**
 * The real worker process (WorkerModule) running the `apply` batch of one corporate action.
 * CRASH=mid_batch: it dies (SIGKILL) after the second account was applied, inside the batch's
 * transaction; CRASH=after_commit: it dies right after the batch committed. TENANT, ACTION and
 * NOW (the job's clock time) name what to run.
 */
async function main(): Promise<void> {
  const app = await NestFactory.createApplicationContext(WorkerModule, {
    logger: false,
    abortOnError: false,
  });
  let applied = 0;
  const crashAfterSecond = () => {
    if (process.env.CRASH === 'mid_batch' && ++applied === 2) {
      process.kill(process.pid, 'SIGKILL');
    }
  };
  const applications = app.get(Applications);
  const applyRatio = applications.applyRatio.bind(applications);
  applications.applyRatio = async (...args) => {
    await applyRatio(...args);
    crashAfterSecond();
  };
  const reorganizations = app.get(Reorganizations);
  const applyCashMerger = reorganizations.applyCashMerger.bind(reorganizations);
  reorganizations.applyCashMerger = async (...args) => {
    await applyCashMerger(...args);
    crashAfterSecond();
  };
  const now = new Date(process.env.NOW as string);
  await app.get(DataSource).transaction((manager) =>
    app.get(CorporateActionJobs).run(manager, {
      id: 'crash-test',
      tenantId: process.env.TENANT as string,
      livemode: false,
      kind: 'corporate_actions.process',
      dueAt: now,
      payload: { actionId: process.env.ACTION, step: 'apply', cursor: null },
      now,
      attempts: 0,
    }),
  );
  if (process.env.CRASH === 'after_commit') {
    process.kill(process.pid, 'SIGKILL');
  }
  await app.close();
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
