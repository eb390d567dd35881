import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { RedisConnection } from 'src/core/redis/redis-connection';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import type { Response } from 'express';
import { Public } from 'src/core/auth/auth.decorators';
import { AppConfig } from 'src/core/config/app-config.service';
import { ReplicaSet } from 'src/core/database/replicas/replica-set';
import { AuthFailureLimiter } from 'src/core/rate-limit/auth-failure-limiter';
import { REDIS } from 'src/core/redis/redis.module';

/** Liveness and readiness for orchestrators; unversioned and unauthenticated. */
@ApiExcludeController()
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: RedisConnection,
    private readonly failures: AuthFailureLimiter,
    private readonly replicas: ReplicaSet,
  ) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** `app_env` tells a QA run which cases apply (production-only or sandbox-only behaviour). */
  @Get('ready')
  async ready(@Res({ passthrough: true }) res: Response): Promise<unknown> {
    const app_env = this.config.get('APP_ENV');
    try {
      const result = await this.health.check([
        () => this.db.pingCheck('postgresql', { timeout: 1500 }),
        () => this.redisCheck(),
        () => this.failureLimitCheck(),
        ...(this.replicas.configured ? [() => this.replicaCheck()] : []),
      ]);
      return { ...result, app_env };
    } catch (err) {
      res.status(503);
      const body = (err as { response?: object }).response ?? { status: 'error' };
      return { ...body, app_env };
    }
  }

  /**
   * Failed logins are limited either way: in Redis for the whole deployment, or by this process
   * alone while Redis does not answer (`store: process`).
   */
  private failureLimitCheck() {
    return this.indicators.check('auth_failure_limit').up({ store: this.failures.store });
  }

  /**
   * Read replicas never make the service unready: one lagging or gone only sends its reads to
   * the primary. Shown for operators: each replica's state, lag and reads served here.
   */
  private replicaCheck() {
    return this.indicators.check('database_replicas').up({ replicas: this.replicas.status() });
  }

  private async redisCheck() {
    const indicator = this.indicators.check('redis');
    try {
      const pong = await Promise.race([
        this.redis.ping(),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 1500)),
      ]);
      return pong === 'PONG' ? indicator.up() : indicator.down({ message: String(pong) });
    } catch (err) {
      return indicator.down({ message: (err as Error).message });
    }
  }
}
