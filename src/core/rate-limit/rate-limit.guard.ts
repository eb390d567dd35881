import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { Principal } from 'src/core/auth/principal';
import { AppConfig } from 'src/core/config/app-config.service';
import { RateLimitExceededError } from 'src/core/rate-limit/rate-limit-errors';
import { API_KEY_BUCKETS, type BatchedTokenBuckets } from 'src/core/rate-limit/rate-limit.tokens';

/**
 * Per-API-key rate limit: a token bucket of RATE_LIMIT_BURST requests refilled at
 * RATE_LIMIT_PER_SECOND, one budget per key over all routes, shared across processes through
 * Redis. Answers 429 SVC-429-001 with Retry-After; every answer carries RateLimit-Limit
 * (the burst), RateLimit-Remaining (requests that may be sent at once now) and
 * RateLimit-Reset (seconds until the full burst is available again).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly burst: number;
  private readonly perSecond: number;

  constructor(
    @Inject(API_KEY_BUCKETS) private readonly buckets: BatchedTokenBuckets,
    config: AppConfig,
  ) {
    this.burst = config.get('RATE_LIMIT_BURST');
    this.perSecond = config.get('RATE_LIMIT_PER_SECOND');
  }

  canActivate(context: ExecutionContext): boolean {
    // The request and response by index: switchToHttp() builds three closures on every call.
    const principal = context.getArgByIndex<{ principal?: Principal }>(0).principal;
    if (!principal) {
      return true; // public route
    }
    const answer = this.buckets.take(`rl:${principal.keyId}`, this.perSecond, this.burst);
    const res = context.getArgByIndex<Response>(1);
    res.setHeader('RateLimit-Limit', this.burst);
    res.setHeader('RateLimit-Remaining', answer.remaining);
    res.setHeader('RateLimit-Reset', answer.resetSeconds);
    if (!answer.allowed) {
      throw new RateLimitExceededError(this.perSecond, this.burst, answer.retryAfterSeconds);
    }
    return true;
  }
}
