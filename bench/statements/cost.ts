import { countQueriesInProcess } from 'bench/lib/query-count';

/** Milliseconds spent inside each timed step (summed over calls; concurrent calls overlap). */
export type StepTimes = Record<string, number>;

/**
 * Times calls of `target[name]` (a method on a prototype, or a function a module exports and its
 * callers read at call time) into `times[step]`, leaving what the function does unchanged.
 */
export function timeCalls(target: object, name: string, times: StepTimes, step: string): void {
  const holder = target as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const original = holder[name];
  times[step] = 0;
  holder[name] = async function timed(this: unknown, ...args: unknown[]) {
    const started = performance.now();
    try {
      return await original.apply(this, args);
    } finally {
      times[step] += performance.now() - started;
    }
  };
}

/**
 * Where a statement job's time goes: the statement's data (its SQL reads and the arithmetic), the
 * PDF, storing it (file, row, event) and the rest of the job (lock, checks, next month's job,
 * commit), with the statements sent to PostgreSQL and the time spent waiting on them.
 */
export async function instrumentStatementJobs(): Promise<{
  times: StepTimes;
  queries: () => { count: number; ms: number };
}> {
  const queries = countQueriesInProcess();
  const times: StepTimes = {};
  const { StatementBuilder } = await import('src/modules/statements/statement-builder');
  const documents = await import('src/modules/statements/pdf/render-documents');
  const { GeneratedDocuments } = await import('src/modules/documents/generated-documents.service');
  const { JobRunner } = await import('src/core/scheduler/job-runner.service');
  timeCalls(StatementBuilder.prototype, 'build', times, 'build_data');
  timeCalls(documents, 'renderStatement', times, 'render_pdf');
  timeCalls(GeneratedDocuments.prototype, 'create', times, 'store_document');
  timeCalls(JobRunner.prototype, 'runOne', times, 'job_total');
  return { times, queries: () => queries.read() };
}
