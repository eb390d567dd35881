import type { DataSource, EntityManager } from 'typeorm';
import type { ClockService } from 'src/core/clock/clock.service';
import type { AssetQueryRow } from 'src/modules/assets/asset-queries';
import { AssetIdentityChanges } from 'src/modules/assets/asset-identity-changes';
import { PriceAdjustments } from 'src/modules/assets/price-adjustments';

describe('Asset tables read inside a transaction while the pool has no connection free', () => {
  it('lays symbol changes read through the transaction, not waiting for the pool, and keeps none of it', async () => {
    const pool = poolWithoutConnections();
    const manager = transactionAnswering([
      { id: 'c1', asset_id: 'a1', tenant_id: null, new_symbol: 'NEW', inactive: false, effective_at: PAST },
    ]);
    const identities = new AssetIdentityChanges(pool.dataSource, clock);
    const row = { id: 'a1', symbol: 'OLD' } as AssetQueryRow;

    const [laid] = await within(identities.lay([row], null, manager));
    expect(laid).toMatchObject({ symbol: 'NEW', former_symbol: 'OLD' });
    expect(await within(identities.renamedTo('new', null, manager))).toEqual(['a1']);
    // Each read went through the transaction (none kept); the pool's load was started beside them.
    expect(manager.query).toHaveBeenCalledTimes(2);
    expect(pool.queries()).toBeGreaterThanOrEqual(1);
    // A reader outside a transaction waits for the pool's load, as before.
    expect(await settledWithin(identities.lay([row], null), 50)).toBe(false);
  });

  it('lays split ratios read through the transaction, not waiting for the pool', async () => {
    const pool = poolWithoutConnections();
    const manager = transactionAnswering([
      { asset_id: 'a1', tenant_id: null, factor: '2', effective_at: PAST },
    ]);
    const adjustments = new PriceAdjustments(pool.dataSource);
    const [laid] = await within(adjustments.lay([{ id: 'a1' } as AssetQueryRow], null, manager));
    expect(laid.price_adjustments).toEqual([{ factor: '2', from: new Date(PAST) }]);
    expect(await settledWithin(adjustments.lay([{ id: 'a1' } as AssetQueryRow], null), 50)).toBe(false);
  });
});

const PAST = '2049-01-04T09:00:00.000Z';
const clock = { now: () => Promise.resolve(new Date('2049-03-01T15:00:00Z')) } as unknown as ClockService;

/** A pool whose every connection is held: its queries never answer. */
function poolWithoutConnections() {
  let count = 0;
  const dataSource = {
    query: () => {
      count++;
      return new Promise(() => undefined);
    },
  } as unknown as DataSource;
  return { dataSource, queries: () => count };
}

function transactionAnswering(rows: unknown[]): EntityManager & { query: jest.Mock } {
  return { query: jest.fn(() => Promise.resolve(rows)) } as unknown as EntityManager & { query: jest.Mock };
}

/** The answer, or a failure when the read waits (for the pool) longer than a second. */
function within<T>(work: Promise<T>): Promise<T> {
  return Promise.race([
    work,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('waited for the pool')), 1000).unref(),
    ),
  ]);
}

async function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([work.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
}
