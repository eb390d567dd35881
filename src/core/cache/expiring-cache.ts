/**
 * A per-process cache whose entries live `ttlMs` (so a change made by another process, such as the
 * support CLI, applies everywhere within it), bounded to `maxEntries` (cleared when full).
 */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { until: number; value: V }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** The cached value, or the loaded one (then kept for ttlMs). */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && hit.until > Date.now()) {
      return hit.value;
    }
    const value = await load();
    if (this.entries.size >= this.maxEntries) {
      this.entries.clear();
    }
    this.entries.set(key, { until: Date.now() + this.ttlMs, value });
    return value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
