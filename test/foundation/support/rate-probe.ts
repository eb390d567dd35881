import type { TestContext, TestCredentials } from '../../support/app';

export interface ProbeResult {
  /** Every answer, with the index of the process (context) that gave it. */
  statuses: Array<{ api: number; status: number }>;
  elapsedSeconds: number;
}

/**
 * Sends one key's requests through several processes at once: `rounds` rounds, each of
 * `perProcess` requests to every process side by side, `pauseMs` apart. Each process alone would
 * let through its own burst and refill; a limit shared through Redis lets all of them together
 * through about one bucket's worth.
 */
export async function probeSharedLimit(
  processes: TestContext[],
  creds: TestCredentials,
  options: { rounds: number; perProcess: number; pauseMs: number },
): Promise<ProbeResult> {
  const started = Date.now();
  const statuses: ProbeResult['statuses'] = [];
  for (let round = 0; round < options.rounds; round++) {
    const answers = await Promise.all(
      processes.flatMap((ctx, api) =>
        Array.from({ length: options.perProcess }, async () => ({
          api,
          status: (await ctx.as(creds).get('/v1/webhooks/event-types')).status,
        })),
      ),
    );
    statuses.push(...answers);
    await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
  }
  return { statuses, elapsedSeconds: (Date.now() - started) / 1000 };
}
