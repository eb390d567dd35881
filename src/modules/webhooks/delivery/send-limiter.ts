/**
 * The process's bound on webhook POSTs in flight (WEBHOOK_CONCURRENCY), shared by every job:
 * a fan-out job's deliveries and single ones take their turn first come, first served. A caller
 * that waits longer than `maxWaitMs` gets no slot (null) and puts its delivery back on the queue,
 * so a job's run stays bounded by its wait and its POST's timeout.
 */
export class SendLimiter {
  private inUse = 0;
  private readonly waiters: Array<(release: () => void) => void> = [];

  constructor(private readonly limit: number) {}

  acquire(maxWaitMs: number): Promise<(() => void) | null> {
    if (this.inUse < this.limit) {
      this.inUse++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve) => {
      const grant = (release: () => void) => {
        clearTimeout(timer);
        resolve(release);
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(grant), 1);
        resolve(null);
      }, maxWaitMs);
      this.waiters.push(grant);
    });
  }

  /** A release that works once; the slot passes straight to the longest waiter, if any. */
  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) {
        return;
      }
      released = true;
      const next = this.waiters.shift();
      if (next) {
        next(this.releaser());
      } else {
        this.inUse--;
      }
    };
  }
}
