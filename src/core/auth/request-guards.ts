import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AccessGuard } from 'src/core/auth/access.guard';
import { ApiAuthGuard } from 'src/core/auth/api-auth.guard';
import { IdempotencyGuard } from 'src/core/idempotency/idempotency.guard';
import { RateLimitGuard } from 'src/core/rate-limit/rate-limit.guard';

/**
 * The one global guard: authentication → rate limit (per key) → access (entitlements, scope,
 * test mode) → idempotency (POST only), in that order. One guard calling the four keeps their
 * order explicit and costs Nest one guard invocation per request instead of four.
 */
@Injectable()
export class RequestGuards implements CanActivate {
  constructor(
    private readonly auth: ApiAuthGuard,
    private readonly rateLimit: RateLimitGuard,
    private readonly access: AccessGuard,
    private readonly idempotency: IdempotencyGuard,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.auth.canActivate(context);
    await this.rateLimit.canActivate(context);
    this.access.canActivate(context);
    return this.idempotency.canActivate(context);
  }
}
