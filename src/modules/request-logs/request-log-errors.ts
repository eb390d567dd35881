import { ServiceError } from 'src/core/errors/service-error';

/** 404 SVC-404-001 naming request_id: no request log of this id is visible to the key. */
export class RequestLogNotFoundError extends ServiceError {
  constructor(id: string) {
    super(
      'SVC-404-001',
      `No such request log: '${id}'. Requests appear within 2 seconds and are kept for the retention period; ` +
        'use the key pair (test or live) of the mode the request was sent in. A request refused before ' +
        'its API key was recognised (no credentials, an unreadable Authorization header, an unknown public ' +
        'key) names no tenant and is never recorded: check the Authorization header it sent.',
      'request_id',
    );
  }
}
