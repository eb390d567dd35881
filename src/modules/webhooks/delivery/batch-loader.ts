/**
 * Coalesces lookups made in the same tick into one query (`WHERE id = ANY(...)`): with many
 * deliveries running at once, each needing its endpoint and event, this turns N round trips
 * into one.
 */
export class BatchLoader<V> {
  private pending = new Map<string, Array<{ resolve(v: V | undefined): void; reject(e: unknown): void }>>();
  private scheduled = false;

  constructor(private readonly fetch: (ids: string[]) => Promise<Map<string, V>>) {}

  load(id: string): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.pending.get(id);
      if (waiters) {
        waiters.push({ resolve, reject });
      } else {
        this.pending.set(id, [{ resolve, reject }]);
      }
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    this.scheduled = false;
    try {
      const found = await this.fetch([...batch.keys()]);
      for (const [id, waiters] of batch) {
        waiters.forEach((w) => w.resolve(found.get(id)));
      }
    } catch (err) {
      for (const waiters of batch.values()) {
        waiters.forEach((w) => w.reject(err));
      }
    }
  }
}
