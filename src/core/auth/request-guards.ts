import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AccessGuard } from 'src/core/auth/access.guard';
import { ApiAuthGuard } from 'src/core/auth/api-auth.guard';
import { IdempotencyGuard } from 'src/core/idempotency/idempotency.guard';
import { RateLimitGuard } from 'src/core/rate-limit/rate-limit.guard';

/**
 * The one global guard: authentication → rate limit (per key) → access (entitlements, scope,
 * test mode) → idempotency (POST only), in that order. One guard calling the four keeps their
 * order explicit and costs Nest one guard invocation per request instead of four.
 *
 * It answers synchronously whenever it can (a cached key on a request that is not a POST): Nest
 * awaits only a guard result that is a promise, and each await is a microtask on every request.
 * The guards read the HTTP request and response as the context's arguments 0 and 1 (all routes
 * are HTTP): switchToHttp() would build three closures per call.
 */
@Injectable()
export class RequestGuards implements CanActivate {
  constructor(
    private readonly auth: ApiAuthGuard,
    private readonly rateLimit: RateLimitGuard,
    private readonly access: AccessGuard,
    private readonly idempotency: IdempotencyGuard,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const authenticated = this.auth.canActivate(context);
    return authenticated instanceof Promise
      ? authenticated.then(() => this.afterAuthentication(context))
      : this.afterAuthentication(context);
  }

  private afterAuthentication(context: ExecutionContext): boolean | Promise<boolean> {
    this.rateLimit.canActivate(context);
    this.access.canActivate(context);
    // Idempotency-Key applies to POST only (IdempotencyGuard lets every other method through).
    if (context.getArgByIndex<Request>(0).method !== 'POST') {
      return true;
    }
    return this.idempotency.canActivate(context);
  }
}
