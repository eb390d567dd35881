import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import type { Response } from 'express';
import Redis from 'ioredis';
import { Public } from 'src/core/auth/auth.decorators';
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
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) res: Response): Promise<unknown> {
    try {
      return await this.health.check([
        () => this.db.pingCheck('postgresql', { timeout: 1500 }),
        () => this.redisCheck(),
      ]);
    } catch (err) {
      res.status(503);
      return (err as { response?: unknown }).response ?? { status: 'error' };
    }
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
