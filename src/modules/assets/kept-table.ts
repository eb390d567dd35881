import type { DataSource, EntityManager } from 'typeorm';

/** Other processes see a change within about this long; the writing process at once. */
const REFRESH_MS = 2000;

/**
 * A small table kept whole in memory and laid over asset rows as they are read (split ratios,
 * symbol changes). Reads happen inside placements' transactions, each holding a pool connection:
 * an expired copy is therefore served while a refresh runs beside it (never awaited), or 20
 * concurrent placements would each wait for a 21st connection that none of them frees.
 *
 * Only the first read and the first after `forget()` (this process changed the table) find no
 * copy. A reader outside a transaction then waits for the load through the pool. A reader inside
 * one (`manager`) reads through its own connection instead, since a pool's worth of such readers
 * would wait for a load that never gets a connection; that read is not kept (its transaction may
 * hold a change not committed yet), and a load through the pool starts beside it.
 */
export class KeptTable<T> {
  private current: T | null = null;
  private loadedAt = 0;
  private loading: Promise<T> | null = null;
  /** Bumped by forget(): a load begun before then is not kept. */
  private generation = 0;

  constructor(
    private readonly pool: DataSource,
    private readonly read: (source: EntityManager | DataSource) => Promise<T>,
  ) {}

  /** The table as kept, or read (see the class comment for `manager`). */
  get(manager?: EntityManager): Promise<T> {
    if (this.current === null) {
      if (manager) {
        this.load().catch(() => undefined);
        return this.read(manager);
      }
      return this.load();
    }
    if (Date.now() - this.loadedAt > REFRESH_MS) {
      this.load().catch(() => undefined);
    }
    return Promise.resolve(this.current);
  }

  /** The next reader reads the table again, not joining a load begun before the change. */
  forget(): void {
    this.generation++;
    this.current = null;
    this.loading = null;
  }

  /** One load through the pool at a time; kept unless forget() came while it ran. */
  load(): Promise<T> {
    if (!this.loading) {
      const generation = this.generation;
      const loading: Promise<T> = this.read(this.pool)
        .then((value) => {
          if (generation === this.generation) {
            this.current = value;
            this.loadedAt = Date.now();
          }
          return value;
        })
        .finally(() => {
          if (this.loading === loading) {
            this.loading = null;
          }
        });
      this.loading = loading;
    }
    return this.loading;
  }
}
