import { ServiceError } from 'src/core/errors/service-error';

/** 409 SVC-409-002 naming Idempotency-Key: the key was already used for a request with another body. */
export class IdempotencyKeyReusedError extends ServiceError {
  constructor() {
    super('SVC-409-002', undefined, 'Idempotency-Key');
  }
}

/** 409 SVC-409-003 naming Idempotency-Key: a request with the same key is still being processed. */
export class IdempotencyKeyInFlightError extends ServiceError {
  constructor(message?: string) {
    super('SVC-409-003', message, 'Idempotency-Key');
  }

  /** Storing the result found the key no longer held by this request (its lease ran out; another took it). */
  static reservationLost(): IdempotencyKeyInFlightError {
    return new IdempotencyKeyInFlightError(
      'This request lost its Idempotency-Key reservation before it finished; nothing was changed.',
    );
  }
}
