import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

/**
 * Starts the inspector's sampled CPU profile of this process; resolves with the function that
 * stops it and writes it to a file (.cpuprofile, read by bench/lib/cpu-profile-summary.ts).
 */
export async function startCpuProfile(): Promise<(file: string) => Promise<void>> {
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, (err, result) => (err ? reject(err) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.start');
  return async (file) => {
    const { profile } = (await post('Profiler.stop')) as { profile: object };
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}
