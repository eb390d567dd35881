import type { AssetQueryRow } from 'src/modules/assets/asset-queries';
import { AssetSearchCache, SEARCH_RESULTS_KEPT, searchKey } from 'src/modules/assets/asset-search-cache';
import type { PriceOverride } from 'src/modules/pricing/pricing.service';

describe('AssetSearchCache', () => {
  let cache: AssetSearchCache;

  beforeEach(() => {
    cache = new AssetSearchCache();
    cache.setLive(true);
  });

  it('keeps nothing while changes are not heard', async () => {
    cache.setLive(false);
    const load = jest.fn(() => Promise.resolve([row('a')]));
    await cache.rows('k', load);
    await cache.rows('k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('answers a repeated search from memory, and concurrent misses share one load', async () => {
    const { load, release } = gatedLoad([row('a')]);
    const first = cache.rows('k', load);
    const second = cache.rows('k', load);
    release();
    expect(await first).toBe(await second);
    expect(await cache.rows('k', load)).toEqual([row('a')]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('answers a load that a change overtook but does not keep it', async () => {
    const { load, release } = gatedLoad([row('old')]);
    const pending = cache.rows('k', load);
    cache.apply({ kind: 'catalogue' });
    // A read after the change does not join the load that started before it.
    const fresh = jest.fn(() => Promise.resolve([row('new')]));
    expect(await cache.rows('k', fresh)).toEqual([row('new')]);
    release();
    expect(await pending).toEqual([row('old')]);
    // The overtaken load finished last but did not replace what the fresh one kept.
    expect(await cache.rows('k', fresh)).toEqual([row('new')]);
    expect(fresh).toHaveBeenCalledTimes(1);
  });

  it('drops kept results on a catalogue change and when the listener goes down', async () => {
    const load = jest.fn(() => Promise.resolve([row('a')]));
    await cache.rows('k', load);
    cache.apply({ kind: 'catalogue' });
    await cache.rows('k', load);
    expect(load).toHaveBeenCalledTimes(2);
    cache.setLive(false);
    cache.setLive(true);
    await cache.rows('k', load);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('does not keep a failed load', async () => {
    const failing = jest.fn((): Promise<AssetQueryRow[]> => Promise.reject(new Error('database down')));
    await expect(cache.rows('k', failing)).rejects.toThrow('database down');
    const load = jest.fn(() => Promise.resolve([row('a')]));
    expect(await cache.rows('k', load)).toEqual([row('a')]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('keeps a bounded number of searches, dropping the least recently used', async () => {
    const load = jest.fn(() => Promise.resolve([row('a')]));
    for (let i = 0; i < SEARCH_RESULTS_KEPT; i++) {
      await cache.rows(`k${i}`, load);
    }
    await cache.rows('k0', load); // k0 used again: k1 is now the oldest
    await cache.rows('one more', load);
    expect(load).toHaveBeenCalledTimes(SEARCH_RESULTS_KEPT + 1);
    await cache.rows('k0', load);
    expect(load).toHaveBeenCalledTimes(SEARCH_RESULTS_KEPT + 1);
    await cache.rows('k1', load);
    expect(load).toHaveBeenCalledTimes(SEARCH_RESULTS_KEPT + 2);
  });

  it('drops one tenant’s overrides on its change, every tenant’s on a change of unknown tenant', async () => {
    const overrides = new Map<string, PriceOverride>([['a', { price: '1', setAt: new Date(0) }]]);
    const loadA = jest.fn(() => Promise.resolve(overrides));
    const loadB = jest.fn(() => Promise.resolve(overrides));
    await cache.overridesOf('A', loadA);
    await cache.overridesOf('B', loadB);
    cache.apply({ kind: 'overrides', tenantId: 'A' });
    await cache.overridesOf('A', loadA);
    await cache.overridesOf('B', loadB);
    expect([loadA.mock.calls.length, loadB.mock.calls.length]).toEqual([2, 1]);
    cache.apply({ kind: 'overrides', tenantId: null });
    await cache.overridesOf('A', loadA);
    await cache.overridesOf('B', loadB);
    expect([loadA.mock.calls.length, loadB.mock.calls.length]).toEqual([3, 2]);
    // Search results do not depend on overrides and stay.
    const load = jest.fn(() => Promise.resolve([row('a')]));
    await cache.rows('k', load);
    cache.apply({ kind: 'overrides', tenantId: 'A' });
    await cache.rows('k', load);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('runs a load on the caller’s own connection apart: it joins no shared load and none joins it', async () => {
    // A search's load through the pool, not answered yet (the pool may have no connection free).
    const { load: poolLoad, release } = gatedLoad(overridesMap('pool'));
    const searching = cache.overridesOf('t', poolLoad);
    // A placement in its transaction loads through its own connection instead of waiting for it.
    const own = jest.fn(() => Promise.resolve(overridesMap('own')));
    expect((await cache.overridesOf('t', own, 'own')).get('asset')?.price).toBe('own');
    expect(poolLoad).toHaveBeenCalledTimes(1);
    // What it read is kept: the next reader needs no load.
    const later = jest.fn(() => Promise.resolve(overridesMap('later')));
    expect((await cache.overridesOf('t', later)).get('asset')?.price).toBe('own');
    expect(later).not.toHaveBeenCalled();
    release();
    expect((await searching).get('asset')?.price).toBe('pool');
    // An own load in flight is joined by no one either (rows alike).
    const { load: ownRows, release: releaseRows } = gatedLoad([row('own')]);
    const placing = cache.rows('ref:x', ownRows, 'own');
    const shared = jest.fn(() => Promise.resolve([row('shared')]));
    expect(await cache.rows('ref:x', shared)).toEqual([row('shared')]);
    releaseRows();
    expect(await placing).toEqual([row('own')]);
  });

  it('keys a search by every criterion but the override tenant, q trimmed', () => {
    const base = { q: 'bank', status: 'active' as const, take: 51, overrideTenant: null };
    expect(searchKey({ ...base, overrideTenant: 'tenant_1' })).toBe(searchKey(base));
    expect(searchKey({ ...base, q: '  bank ' })).toBe(searchKey(base));
    const others = [
      { ...base, q: 'banks' },
      { ...base, status: 'inactive' as const },
      { ...base, take: 11 },
      { ...base, classes: ['equity' as const] },
      { ...base, country: 'us' },
      { ...base, markets: ['XNAS'] },
      { ...base, marketCountry: 'US' },
    ].map(searchKey);
    expect(new Set([searchKey(base), ...others]).size).toBe(others.length + 1);
  });
});

const row = (id: string) => ({ id }) as AssetQueryRow;

/** A load whose answer the test releases, counting how often it ran. */
function gatedLoad<T>(value: T) {
  let release!: () => void;
  const load = jest.fn(
    () =>
      new Promise<T>((resolve) => {
        release = () => resolve(value);
      }),
  );
  return { load, release: () => release() };
}

function overridesMap(price: string): ReadonlyMap<string, PriceOverride> {
  return new Map([['asset', { price, setAt: new Date('2026-11-01T00:00:00Z') }]]);
}
