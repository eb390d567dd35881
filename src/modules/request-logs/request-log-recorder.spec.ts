import type { OnModuleInit } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { AppConfig } from 'src/core/config/app-config.service';
import type { ClockService } from 'src/core/clock/clock.service';
import type { JobScheduler } from 'src/core/scheduler/job-scheduler.service';
import type { CredentialCache } from 'src/core/auth/credential-cache';
import { RequestLogRecorder } from 'src/modules/request-logs/request-log-recorder.service';
import type { CapturedRequest } from 'src/modules/request-logs/request-log-row';

describe('RequestLogRecorder flush timer', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('keeps no timer while no request was recorded', () => {
    recorder();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('writes a recorded row within one interval, then idles again', async () => {
    const { recorder: log, query } = recorder();
    log.push(captured('req_1'));
    log.push(captured('req_2'));
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(FLUSH_MS - 1);
    expect(query).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    await settle();
    expect(query).toHaveBeenCalledTimes(1);
    const rows = JSON.parse((query.mock.calls[0][0] as { values: [string] }).values[0]) as unknown[][];
    expect(rows.map((row) => row[0])).toEqual(['req_1', 'req_2']);
    expect(jest.getTimerCount()).toBe(0);

    log.push(captured('req_3'));
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(FLUSH_MS);
    await settle();
    expect(query).toHaveBeenCalledTimes(2);
  });

  it('arms nothing once shut down', async () => {
    const { recorder: log } = recorder();
    await log.onModuleDestroy();
    log.push(captured('req_1'));
    expect(jest.getTimerCount()).toBe(0);
  });
});

const FLUSH_MS = 500;

function recorder() {
  const query = jest.fn().mockResolvedValue({ rows: [] });
  const settings: Record<string, unknown> = { REQUEST_LOG_ENABLED: true, REQUEST_LOG_FLUSH_MS: FLUSH_MS };
  const recorder = new RequestLogRecorder(
    { driver: { master: { query } }, manager: {} } as unknown as DataSource,
    { get: (name: string) => settings[name] } as unknown as AppConfig,
    { now: () => Promise.resolve(new Date(0)) } as unknown as ClockService,
    { schedule: jest.fn().mockResolvedValue(undefined) } as unknown as JobScheduler,
    {} as CredentialCache,
  );
  // As Nest starts it, whatever lifecycle hooks it has.
  (recorder as Partial<OnModuleInit>).onModuleInit?.();
  return { recorder, query };
}

function captured(id: string): CapturedRequest {
  return {
    id,
    scope: { tenantId: 'ten_1', livemode: false, keyId: 'apk_1', investorId: null, method: 'basic' },
    publicKey: null,
    method: 'GET',
    originalUrl: '/v1/webhooks',
    status: 200,
    durationMs: 3,
    finishedAt: 1_000,
    error: undefined,
    idempotencyKey: undefined,
    replayed: false,
    legacy: false,
  };
}

/** Lets the flush's awaited promises settle. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await Promise.resolve();
  }
}
