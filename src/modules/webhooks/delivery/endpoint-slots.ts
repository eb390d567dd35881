export type SlotDecision = { go: true; release(): void } | { go: false };

/**
 * Keeps one endpoint from taking every delivery slot of the process. Up to `limit` deliveries
 * per endpoint run at once; a further one waits for a slot while the endpoint answers promptly,
 * and is put back on the queue (not counted as an attempt) when the endpoint's oldest running
 * delivery has been waiting longer than `slowMs` — a hanging receiver then holds `limit` slots,
 * not all of them, and other endpoints keep flowing.
 */
export class EndpointSlots {
  private readonly running = new Map<string, number[]>();
  private readonly waiters = new Map<string, Array<() => void>>();

  constructor(
    private readonly limit: number,
    private readonly slowMs: number,
  ) {}

  /** A slot now if the endpoint has one free, else null (without waiting). */
  tryTake(endpointId: string): { go: true; release(): void } | null {
    const starts = this.running.get(endpointId) ?? [];
    if (starts.length >= this.limit) {
      return null;
    }
    const started = Date.now();
    starts.push(started);
    this.running.set(endpointId, starts);
    return { go: true, release: () => this.release(endpointId, started) };
  }

  async take(endpointId: string): Promise<SlotDecision> {
    for (;;) {
      const slot = this.tryTake(endpointId);
      if (slot) {
        return slot;
      }
      const starts = this.running.get(endpointId)!;
      const age = Date.now() - starts[0];
      if (age >= this.slowMs) {
        return { go: false };
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.slowMs - age);
        const list = this.waiters.get(endpointId) ?? [];
        list.push(() => {
          clearTimeout(timer);
          resolve();
        });
        this.waiters.set(endpointId, list);
      });
    }
  }

  private release(endpointId: string, started: number): void {
    const starts = this.running.get(endpointId);
    if (starts) {
      starts.splice(starts.indexOf(started), 1);
      if (starts.length === 0) {
        this.running.delete(endpointId);
      }
    }
    const list = this.waiters.get(endpointId);
    if (list) {
      this.waiters.delete(endpointId);
      list.forEach((wake) => wake());
    }
  }
}
