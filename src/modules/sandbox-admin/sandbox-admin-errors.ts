import { ServiceError } from 'src/core/errors/service-error';

/** 401 SVC-401-001 without a challenge: a sandbox admin request lacks the right SANDBOX_ADMIN_TOKEN. */
export class SandboxAdminTokenError extends ServiceError {
  constructor() {
    super('SVC-401-001', 'The sandbox admin API takes Authorization: Bearer <SANDBOX_ADMIN_TOKEN>.');
  }
}
