import type { Dispatcher } from 'undici';

/**
 * One POST through undici's dispatcher (`Agent.dispatch`), as a promise of the answer's status.
 * The answer's body is read and dropped, so its connection can carry the next POST. `fail` ends
 * the exchange at once with its reason (timed out, shutting down), closing its connection if it
 * has one; one that has not reached a connection yet is dropped when it does. Cheaper per POST
 * than undici's `request` with an AbortSignal: no signal, no listeners, no body stream.
 */
export class PostExchange implements Dispatcher.DispatchHandlers {
  readonly done: Promise<number>;
  private resolve!: (status: number) => void;
  private reject!: (err: Error) => void;
  private abort: ((err?: Error) => void) | undefined;
  private failedWith: Error | undefined;
  private settled = false;
  private statusCode = 0;

  constructor() {
    this.done = new Promise<number>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  fail(reason: Error): void {
    if (this.settled) {
      return;
    }
    this.failedWith = reason;
    this.settle(reason);
    this.abort?.(reason);
  }

  onConnect(abort: (err?: Error) => void): void {
    this.abort = abort;
    if (this.failedWith) {
      abort(this.failedWith);
    }
  }

  /** Called once per 1xx and once for the final answer: the last status is the answer's. */
  onHeaders(statusCode: number): boolean {
    this.statusCode = statusCode;
    return true;
  }

  onData(): boolean {
    return true;
  }

  onComplete(): void {
    this.settle(null);
  }

  onError(err: Error): void {
    this.settle(err);
  }

  private settle(err: Error | null): void {
    if (this.settled) {
      return;
    }
    this.settled = true;
    if (err) {
      this.reject(err);
    } else {
      this.resolve(this.statusCode);
    }
  }
}
