import { ServiceError } from 'src/core/errors/service-error';

/** 429 SVC-429-001 with Retry-After: the caller is past a limit and may retry after that many seconds. */
export abstract class TooManyRequestsError extends ServiceError {
  protected constructor(message: string, retryAfterSeconds: number) {
    super('SVC-429-001', message, undefined, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** 429 SVC-429-001: the API key spent its request budget (RATE_LIMIT_BURST, RATE_LIMIT_PER_SECOND). */
export class RateLimitExceededError extends TooManyRequestsError {
  constructor(perSecond: number, burst: number, retryAfterSeconds: number) {
    super(
      `Rate limit of ${perSecond} requests per second (bursts up to ${burst}) exceeded for this API key. Retry after ${retryAfterSeconds} s.`,
      retryAfterSeconds,
    );
  }
}

/** 429 SVC-429-001: a failed authentication past the failure limit of its public key or client address. */
export class TooManyFailedAuthenticationsError extends TooManyRequestsError {
  constructor(retryAfterSeconds: number) {
    super(
      `Too many failed authentications for this API key or client address. Retry after ${retryAfterSeconds} s.`,
      retryAfterSeconds,
    );
  }
}
