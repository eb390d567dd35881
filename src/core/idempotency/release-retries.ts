/** How often a key a failed request could not release is tried again. */
const RETRY_MS = 250;

/**
 * Reservations a failed request could not delete (the database that failed the request refused
 * the DELETE too), tried again every RETRY_MS until deleted or until their lease would have freed
 * them anyway: a partner retrying after the failure's Retry-After finds the key free instead of
 * 409 SVC-409-003 for the rest of the lease.
 */
export class ReleaseRetries<T extends { token: string }> {
  private readonly pending = new Map<string, { key: T; until: number }>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly release: (key: T) => Promise<void>,
    private readonly leaseMs: number,
  ) {}

  add(key: T): void {
    // This process's wall time, not business time: it only bounds how long to keep trying.
    this.pending.set(key.token, { key, until: Date.now() + this.leaseMs });
    this.timer ??= setInterval(() => void this.retry(), RETRY_MS).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async retry(): Promise<void> {
    const now = Date.now();
    await Promise.all(
      [...this.pending.values()].map(({ key, until }) =>
        until < now
          ? this.pending.delete(key.token)
          : this.release(key).then(
              () => this.pending.delete(key.token),
              () => undefined, // still refused: the next round tries again
            ),
      ),
    );
    if (this.pending.size === 0) {
      this.stop();
    }
  }
}
