import { Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TerminusModule } from '@nestjs/terminus';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessGuard } from 'src/core/auth/access.guard';
import { ApiAuthGuard } from 'src/core/auth/api-auth.guard';
import { RequestGuards } from 'src/core/auth/request-guards';
import { BasicStrategy } from 'src/core/auth/basic.strategy';
import { CredentialCache } from 'src/core/auth/credential-cache';
import { DataEncryption } from 'src/core/crypto/data-encryption';
import { JwtStrategy } from 'src/core/auth/jwt.strategy';
import { ClockModule } from 'src/core/clock/clock.module';
import { AppConfigModule } from 'src/core/config/config.module';
import { DatabaseModule } from 'src/core/database/database.module';
import { ReplicasModule } from 'src/core/database/replicas/replicas.module';
import { AllExceptionsFilter } from 'src/core/errors/all-exceptions.filter';
import { ErrorDocsController } from 'src/core/errors/error-docs.controller';
import { ErrorRenderer } from 'src/core/errors/error-renderer';
import { EventsCoreModule } from 'src/core/events/events-core.module';
import { HealthController } from 'src/core/health/health.controller';
import { RoutePrefilter } from 'src/core/http/route-prefilter';
import { IdempotencyKeyEntity } from 'src/core/idempotency/idempotency-key.entity';
import { IdempotencyGuard } from 'src/core/idempotency/idempotency.guard';
import { IdempotencyService } from 'src/core/idempotency/idempotency.service';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { LoggingModule } from 'src/core/logging/logging.module';
import { RateLimitGuard } from 'src/core/rate-limit/rate-limit.guard';
import { RateLimitModule } from 'src/core/rate-limit/rate-limit.module';
import { RedisModule } from 'src/core/redis/redis.module';
import { TenancyModule } from 'src/core/tenancy/tenancy.module';

/**
 * Cross-cutting pieces every surface module relies on. Global guards run in this order:
 * authentication → rate limit (per key) → access (entitlements, scope, test-mode) →
 * idempotency (POST only).
 */
@Global()
@Module({
  imports: [
    AppConfigModule,
    LoggingModule,
    DatabaseModule,
    ReplicasModule,
    RedisModule,
    TenancyModule,
    ClockModule,
    EventsCoreModule,
    RateLimitModule,
    PassportModule.register({ session: false, property: 'principal' }),
    TerminusModule,
    TypeOrmModule.forFeature([IdempotencyKeyEntity]),
  ],
  controllers: [HealthController, ErrorDocsController],
  providers: [
    CredentialCache,
    DataEncryption,
    BasicStrategy,
    JwtStrategy,
    ErrorRenderer,
    IdempotencyService,
    IdempotentTransaction,
    ApiAuthGuard,
    RateLimitGuard,
    AccessGuard,
    IdempotencyGuard,
    RoutePrefilter,
    { provide: APP_GUARD, useClass: RequestGuards },
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
  ],
  exports: [CredentialCache, DataEncryption, ErrorRenderer, IdempotencyService, IdempotentTransaction],
})
export class CoreModule {}
