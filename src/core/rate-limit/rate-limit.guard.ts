import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerModuleOptions,
  ThrottlerOptions,
  ThrottlerStorage,
} from '@nestjs/throttler';
import type { Response } from 'express';
import type { Principal } from 'src/core/auth/principal';
import { ServiceError } from 'src/core/errors/service-error';

/**
 * Per-API-key rate limit shared across processes through the throttler's Redis storage. One
 * budget per key over all routes, so no per-route metadata is read: the stock ThrottlerGuard
 * resolves skip/limit/ttl decorators through the reflector on every request, which this
 * service never uses. Answers 429 SVC-429-001 with Retry-After; every answer carries
 * RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly throttler: ThrottlerOptions;
  private readonly limit: number;
  private readonly ttl: number;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
  ) {
    this.throttler = (Array.isArray(options) ? options : options.throttlers)[0];
    this.limit = this.throttler.limit as number;
    this.ttl = this.throttler.ttl as number;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const principal = context.switchToHttp().getRequest<{ principal?: Principal }>().principal;
    if (!principal) {
      return true; // public route
    }
    const record = await this.storage.increment(
      `rl:${principal.keyId}`,
      this.ttl,
      this.limit,
      this.ttl,
      'default',
    );
    const res = context.switchToHttp().getResponse<Response>();
    res.setHeader('RateLimit-Limit', this.limit);
    res.setHeader('RateLimit-Remaining', Math.max(0, this.limit - record.totalHits));
    res.setHeader('RateLimit-Reset', record.timeToExpire);
    if (record.isBlocked) {
      const retryAfter = String(Math.max(1, record.timeToBlockExpire));
      throw new ServiceError(
        'SVC-429-001',
        `Rate limit of ${this.limit} requests per ${this.ttl / 1000} s exceeded for this API key. Retry after ${retryAfter} s.`,
        undefined,
        { 'Retry-After': retryAfter },
      );
    }
    return true;
  }
}
