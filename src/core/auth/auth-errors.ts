import { ServiceError } from 'src/core/errors/service-error';

/** The challenge a 401 answers with: HTTP Basic (API keys) or a Bearer JWT. */
const UNAUTHORIZED_HEADERS = { 'WWW-Authenticate': 'Basic realm="investment-api", Bearer' };

/** 401 SVC-401-001: the Authorization header is missing, malformed or names no valid key or token. */
export class NotAuthenticatedError extends ServiceError {
  constructor() {
    super('SVC-401-001', undefined, undefined, UNAUTHORIZED_HEADERS);
  }
}

/** 403 SVC-403-001: an investor-scoped key reached a tenant-level route or another investor's keys. */
export class KeyScopeForbiddenError extends ServiceError {
  constructor(message?: string) {
    super('SVC-403-001', message);
  }
}

/** 403 SVC-403-002: the tenant's fixedIncomeEnabled flag is off, so bonds are not routed. */
export class FixedIncomeNotEnabledError extends ServiceError {
  constructor() {
    super('SVC-403-002');
  }
}
