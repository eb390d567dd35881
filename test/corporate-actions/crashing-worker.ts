import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { Applications } from 'src/modules/corporate-actions/applications';
import { CorporateActionJobs } from 'src/modules/corporate-actions/corporate-action-jobs';
import { Reorganizations } from 'src/modules/corporate-actions/reorganizations';
import { WorkerModule } from 'src/worker.module';

/**
 * The real worker process (WorkerModule) running the `apply` batch of one corporate action.
 * CRASH=mid_batch: it dies (SIGKILL) once the batch's accounts were applied (a split's or a cash
 * merger's), inside the batch's transaction; CRASH=after_commit: it dies right after the batch committed. TENANT, ACTION and
 * NOW (the job's clock time) name what to run.
 */
async function main(): Promise<void> {
  const app = await NestFactory.createApplicationContext(WorkerModule, {
    logger: false,
    abortOnError: false,
  });
  let applied = 0;
  const crashAfterSecond = (accounts: number) => {
    applied += accounts;
    if (process.env.CRASH === 'mid_batch' && applied >= 2) {
      process.kill(process.pid, 'SIGKILL');
    }
  };
  const applications = app.get(Applications);
  const applyRatios = applications.applyRatios.bind(applications);
  applications.applyRatios = async (...args) => {
    await applyRatios(...args);
    crashAfterSecond(args[3].length);
  };
  const reorganizations = app.get(Reorganizations);
  const applyCashMergers = reorganizations.applyCashMergers.bind(reorganizations);
  reorganizations.applyCashMergers = async (...args) => {
    await applyCashMergers(...args);
    crashAfterSecond(args[3].length);
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
