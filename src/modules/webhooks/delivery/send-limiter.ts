interface Waiter {
  grant(release: (() => void) | null): void;
  deadline: number;
}

/**
 * The process's bound on webhook POSTs in flight (WEBHOOK_CONCURRENCY), shared by every job:
 * a fan-out job's deliveries and single ones take their turn first come, first served. A caller
 * that waits longer than `maxWaitMs` gets no slot (null) and puts its delivery back on the queue,
 * so a job's run stays bounded by its wait and its POST's timeout.
 */
export class SendLimiter {
  private inUse = 0;
  private waiters: Waiter[] = [];
  /** One timer for every waiter's deadline (at the earliest), not one per waiter. */
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;

  constructor(private readonly limit: number) {}

  acquire(maxWaitMs: number): Promise<(() => void) | null> {
    if (this.inUse < this.limit) {
      this.inUse++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((grant) => {
      const deadline = Date.now() + maxWaitMs;
      this.waiters.push({ grant, deadline });
      this.wakeBy(deadline);
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
        next.grant(this.releaser());
      } else {
        this.inUse--;
      }
    };
  }

  private wakeBy(deadline: number): void {
    if (deadline >= this.timerAt) {
      return;
    }
    clearTimeout(this.timer);
    this.timerAt = deadline;
    this.timer = setTimeout(() => this.expire(), Math.max(0, deadline - Date.now()));
  }

  /** Waiters past their deadline get no slot; the timer is set again for the next deadline. */
  private expire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = Date.now();
    const expired = this.waiters.filter((w) => w.deadline <= now);
    if (expired.length > 0) {
      this.waiters = this.waiters.filter((w) => w.deadline > now);
      expired.forEach((w) => w.grant(null));
    }
    const next = this.waiters.reduce((earliest, w) => Math.min(earliest, w.deadline), Infinity);
    if (next !== Infinity) {
      this.wakeBy(next);
    }
  }
}
