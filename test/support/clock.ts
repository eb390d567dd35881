import type { TestContext, TestCredentials } from './app';

/** Freezes the tenant's test clock at `at` (through the API). */
export async function freezeClock(ctx: TestContext, creds: TestCredentials, at: string): Promise<void> {
  const res = await ctx.as(creds).post('/v1/test_helpers/clock', { frozen_time: at });
  if (res.status !== 200) {
    throw new Error(`clock failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/** Moves the tenant's test clock `seconds` ahead (through the API). */
export async function advanceClock(ctx: TestContext, creds: TestCredentials, seconds: number): Promise<void> {
  const res = await ctx.as(creds).post('/v1/test_helpers/clock', { advance_seconds: seconds });
  if (res.status !== 200) {
    throw new Error(`clock failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
}
