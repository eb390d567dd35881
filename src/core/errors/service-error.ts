import { ERROR_CATALOG, ErrorCode } from 'src/core/errors/error-catalog';

/**
 * The one exception domain code throws. The global filter renders it as the SVC envelope.
 * `param` names the field path at fault (e.g. `contact.address.country`, `eventTypeNames[1]`).
 */
export class ServiceError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly param?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message ?? ERROR_CATALOG[code].message);
    this.status = ERROR_CATALOG[code].status;
  }

  static invalid(param: string, message: string): ServiceError {
    return new ServiceError('SVC-400-001', message, param);
  }

  static missing(param: string, message?: string): ServiceError {
    return new ServiceError('SVC-400-002', message ?? `Missing required field ${param}.`, param);
  }

  static notFound(what: string, id?: string): ServiceError {
    return new ServiceError('SVC-404-001', id ? `No such ${what}: '${id}'.` : `No such ${what}.`);
  }

  static conflict(message: string): ServiceError {
    return new ServiceError('SVC-409-001', message);
  }

  static refused(message: string, param?: string): ServiceError {
    return new ServiceError('SVC-422-001', message, param);
  }
}

/** Disabled add-on product: answered with the legacy body, not the SVC envelope (spec, Errors). */
export class ProductNotEnabledError extends Error {
  readonly status = 403;
  constructor(readonly product: string) {
    super(`The ${product} product is not enabled for this tenant. Contact support to enable it.`);
  }
}
