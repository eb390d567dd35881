import type { DataSource } from 'typeorm';
import { parseLsn } from 'src/core/database/replicas/lsn';
import { BEYOND_ANY_REPLICA, WriteMarks } from 'src/core/database/replicas/write-marks';
import type { RedisConnection } from 'src/core/redis/redis-connection';

/** A Redis holding strings, for the two commands the marks use. */
function keptStrings(): RedisConnection {
  const kept = new Map<string, string>();
  return {
    set: (key: string, value: string) => Promise.resolve(void kept.set(key, value)),
    get: (key: string) => Promise.resolve(kept.get(key) ?? null),
  } as unknown as RedisConnection;
}

function primaryAnswering(query: () => Promise<unknown>): DataSource {
  return { query } as unknown as DataSource;
}

describe('WriteMarks: a caller’s last write position', () => {
  it('is the primary’s position after the write', async () => {
    const marks = new WriteMarks(
      primaryAnswering(() => Promise.resolve([{ lsn: '0/3000148' }])),
      keptStrings(),
    );
    await marks.record('key_1');
    expect(await marks.required('key_1')).toBe(parseLsn('0/3000148'));
  });

  it('keeps the caller on the primary, without failing its answer, when the position cannot be read', async () => {
    const redis = keptStrings();
    const marks = new WriteMarks(
      primaryAnswering(() => Promise.reject(new Error('Connection terminated unexpectedly'))),
      redis,
    );
    await expect(marks.record('key_1')).resolves.toBeUndefined();
    expect(await marks.required('key_1')).toBe(parseLsn(BEYOND_ANY_REPLICA));
    // Another process reads the shared mark: no replica has replayed that far either.
    expect(
      await new WriteMarks(
        primaryAnswering(() => Promise.reject(new Error('unused'))),
        redis,
      ).required('key_1'),
    ).toBe(parseLsn(BEYOND_ANY_REPLICA));
  });
});
