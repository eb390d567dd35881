import { spawn } from 'node:child_process';
import { startCpuProfile } from 'bench/lib/cpu-profile';

/**
 * `perf record` of process `pid` (all threads, CPU time, kernel included) over `work`; run node
 * with --perf-basic-prof so JavaScript frames have names. Unlike the inspector's sampled profile,
 * a socket write that wakes another process does not count the time this one then waits for a CPU.
 */
export async function perfRecorded<T>(
  file: string | undefined,
  pid: number,
  work: () => Promise<T>,
): Promise<T> {
  if (!file) {
    return work();
  }
  const perf = spawn('perf', ['record', '-F', '999', '-g', '-p', String(pid), '-o', file], {
    stdio: 'ignore',
  });
  await new Promise((r) => setTimeout(r, 500)); // attached
  try {
    return await work();
  } finally {
    const exited = new Promise((r) => perf.once('exit', r));
    perf.kill('SIGINT');
    await exited;
  }
}

/** `work` under the inspector's CPU profile of this process, written to `file` (none without one). */
export async function profiled<T>(file: string | undefined, work: () => Promise<T>): Promise<T> {
  if (!file) {
    return work();
  }
  const stop = await startCpuProfile();
  try {
    return await work();
  } finally {
    await stop(file);
  }
}
