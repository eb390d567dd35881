import { ServiceError } from 'src/core/errors/service-error';
import { TooManyRequestsError } from 'src/core/rate-limit/rate-limit-errors';

/** 503 SVC-503-001: the stream slots (Redis) could not be counted, so no stream opens. */
export class EventStreamsUnavailableError extends ServiceError {
  constructor() {
    super('SVC-503-001', 'Event streams are unavailable for a moment (Redis). Retry shortly.');
  }
}

/** 429 SVC-429-001: the API key already holds the most open event streams allowed. */
export class TooManyEventStreamsError extends TooManyRequestsError {
  constructor(max: number, retryAfterSeconds: number) {
    super(
      `This API key already holds ${max} open event streams, the most allowed. Close one, or retry after ${retryAfterSeconds} s.`,
      retryAfterSeconds,
    );
  }
}
