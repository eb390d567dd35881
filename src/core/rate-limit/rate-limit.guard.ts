import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import type { Principal } from 'src/core/auth/principal';
import { ServiceError } from 'src/core/errors/service-error';

/**
 * Per-API-key rate limit shared across processes through Redis. One counter per key over all
 * routes; answers 429 SVC-429-001 with Retry-After and RateLimit-* headers.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    this.headerPrefix = 'RateLimit';
  }

  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    return Promise.resolve(!context.switchToHttp().getRequest<{ principal?: Principal }>().principal);
  }

  protected override getTracker(req: Record<string, any>): Promise<string> {
    return Promise.resolve((req.principal as Principal).keyId);
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, name: string): string {
    return `rl:${name}:${tracker}`;
  }

  protected override throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const retryAfter = String(Math.max(1, Math.ceil(detail.timeToBlockExpire)));
    throw new ServiceError(
      'SVC-429-001',
      `Rate limit of ${detail.limit} requests per ${detail.ttl / 1000} s exceeded for this API key. Retry after ${retryAfter} s.`,
      undefined,
      { 'Retry-After': retryAfter },
    );
  }
}
