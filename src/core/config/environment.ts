import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, validateSync } from 'class-validator';

/**
 * Every setting the service reads from its environment, validated once at boot.
 * Defaults fit a local sandbox so `npm run sandbox` needs no .env file.
 */
export class Environment {
  @IsIn(['sandbox', 'production'])
  APP_ENV: 'sandbox' | 'production' = 'sandbox';

  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgres:// connection url' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/investment_service';

  @Matches(/^rediss?:\/\/.+/, { message: 'must be a redis:// connection url' })
  REDIS_URL = 'redis://127.0.0.1:6379/0';

  /** Key prefix of the Bull queues in Redis; separates deployments (and test files) sharing one Redis. */
  @Matches(/^[A-Za-z0-9:_-]{1,64}$/, { message: 'must be 1-64 characters of letters, digits, : _ -' })
  QUEUE_PREFIX = 'svc';

  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsUrl({ require_tld: false, require_protocol: true })
  PUBLIC_URL = 'http://localhost:3000';

  @IsUrl({ require_tld: false, require_protocol: true })
  DASHBOARD_URL = 'http://localhost:3000/dashboard';

  @Matches(/^\/[A-Za-z0-9/_-]*\/v1$/, { message: 'must be a path ending in /v1, such as /legacy/v1' })
  LEGACY_BASE_PATH = '/legacy/v1';

  @IsString()
  JWT_ISSUER = 'https://identity.sandbox.local/';

  @IsString()
  JWT_AUDIENCE = 'investment-api';

  /** PEM-encoded public key (RS256/ES256). Either this or JWT_JWKS_URL enables Bearer tokens. */
  @IsOptional()
  @Matches(/-----BEGIN PUBLIC KEY-----[\s\S]+-----END PUBLIC KEY-----/, {
    message: 'must be a PEM public key',
  })
  JWT_PUBLIC_KEY?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  JWT_JWKS_URL?: string;

  /** Sustained requests per second allowed per API key. */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1)
  RATE_LIMIT_PER_SECOND = 100;

  /** Requests an API key may send at once before the sustained rate applies. */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1)
  RATE_LIMIT_BURST = 200;

  /** How long an API key stays cached in a process; bounds how late a revocation takes effect. */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(0)
  @Max(5000)
  AUTH_CACHE_TTL_MS = 4000;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /** Runs migrations at start-up (sandbox default). */
  @Transform(({ value }) => value === true || value === 'true' || value === '1')
  MIGRATE_ON_START = true;

  /** Runs the queue workers (webhook delivery, settlement) inside the API process. */
  @Transform(({ value }) => value === true || value === 'true' || value === '1')
  WORKER_IN_PROCESS = true;

  @IsString()
  STORAGE_DIR = './var/storage';

  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1)
  DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
}

/** Used by ConfigModule: one clear line naming each bad value, then the process stops. */
export function validateEnvironment(raw: Record<string, unknown>): Environment {
  const defined = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== ''));
  const env = plainToInstance(Environment, defined, { exposeDefaultValues: true });
  const errors = validateSync(env, { skipMissingProperties: false, whitelist: false });
  if (errors.length > 0) {
    const lines = errors.map(
      (e) =>
        `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')} (got ${JSON.stringify(e.value)})`,
    );
    throw new Error(`Invalid configuration: ${lines.join(' | ')}`);
  }
  return env;
}
