import { ServiceError } from 'src/core/errors/service-error';

/** 404 SVC-404-001 naming endpoint: a resend names no webhook endpoint visible to the key. */
export class WebhookEndpointNotFoundError extends ServiceError {
  constructor(endpointId: string) {
    super('SVC-404-001', `No such webhook endpoint: '${endpointId}'.`, 'endpoint');
  }
}

/** 409 SVC-409-001 naming endpoint: the webhook endpoint a resend names cannot take it now. */
export class WebhookEndpointConflictError extends ServiceError {
  constructor(message: string) {
    super('SVC-409-001', message, 'endpoint');
  }

  /** The endpoint is disabled. */
  static disabled(endpointId: string): WebhookEndpointConflictError {
    return new WebhookEndpointConflictError(
      `Webhook endpoint ${endpointId} is disabled; enable it (PATCH /v1/webhooks/${endpointId}) first.`,
    );
  }
}
