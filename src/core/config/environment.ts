import { plainToInstance, Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateIf,
  validateSync,
} from 'class-validator';

/**
 * Every setting the service reads from its environment, validated once at boot.
 * Defaults fit a local sandbox so `npm run sandbox` needs no .env file.
 */
export class Environment {
  @IsIn(['sandbox', 'production'])
  APP_ENV: 'sandbox' | 'production' = 'sandbox';

  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgres:// connection url' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/investment_service';

  /**
   * Connections this process's pool keeps to DATABASE_URL at most. Every process's pool plus its
   * one LISTEN connection must stay under the server's max_connections: past it, requests
   * that need a new connection answer 503 SVC-503-001 with Retry-After.
   */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(2)
  @Max(500)
  DATABASE_POOL_MAX = 20;

  /**
   * How long work waits for one of this process's pool connections (every one busy) or for a new
   * one to open. Past it the request answers 503 SVC-503-001 with Retry-After, like a database that
   * refuses connections, and its transaction, if any, rolls back: a wait has a bound, so requests
   * held up behind others free what they hold instead of queueing without end.
   */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(100)
  @Max(600_000)
  DATABASE_POOL_WAIT_MS = 30_000;

  /**
   * Read replicas of DATABASE_URL (comma-separated postgres:// URLs). Set, the reads that may lag
   * (asset search, market data, list routes) go to a replica at most DATABASE_REPLICA_MAX_LAG_MS
   * behind that has replayed the caller's own last write; everything else stays on the primary.
   */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/[^,]+(,postgres(ql)?:\/\/[^,]+)*$/, {
    message: 'must be a comma-separated list of postgres:// connection urls',
  })
  DATABASE_REPLICA_URLS?: string;

  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(0)
  DATABASE_REPLICA_MAX_LAG_MS = 1000;

  @Matches(/^rediss?:\/\/.+/, { message: 'must be a redis:// connection url' })
  REDIS_URL = 'redis://127.0.0.1:6379/0';

  /**
   * Seed nodes of a Redis Cluster (`host:port,host:port`). Set, every Redis user (queues, rate
   * limits, stream slots, health) talks to the cluster and REDIS_URL is not used.
   */
  @IsOptional()
  @Matches(/^[A-Za-z0-9.-]+:\d{1,5}(,[A-Za-z0-9.-]+:\d{1,5})*$/, {
    message: 'must be a comma-separated list of host:port',
  })
  REDIS_CLUSTER_NODES?: string;

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

  /** Failed authentications per minute one public key may collect before they answer 429. */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1)
  AUTH_FAILURES_PER_KEY_PER_MINUTE = 20;

  /** Failed authentications per minute one client address may collect before they answer 429. */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1)
  AUTH_FAILURES_PER_ADDRESS_PER_MINUTE = 300;

  /**
   * How long a client may take to send its request line and headers (408 and the connection closed
   * beyond): a connection holding an unfinished header block is dropped after this long.
   */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(500)
  @Max(60000)
  HTTP_HEADERS_TIMEOUT_MS = 10000;

  /** How long a client may take to send a whole request, body included (408 beyond). */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1000)
  @Max(600000)
  HTTP_REQUEST_TIMEOUT_MS = 60000;

  /** How long an API key stays cached in a process; bounds how late a revocation takes effect. */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(0)
  @Max(5000)
  AUTH_CACHE_TTL_MS = 4000;

  /**
   * Lease of an in-flight Idempotency-Key, renewed while its request runs: when the process
   * running it dies, the key is free again after at most this long.
   */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(300)
  @Max(30000)
  IDEMPOTENCY_LEASE_MS = 30000;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /** Runs migrations at start-up (sandbox default). */
  @Transform(({ value }) => value === true || value === 'true' || value === '1')
  MIGRATE_ON_START = true;

  /** Runs the queue workers (webhook delivery, settlement) inside the API process. */
  @Transform(({ value }) => value === true || value === 'true' || value === '1')
  WORKER_IN_PROCESS = true;

  /**
   * Key that encrypts webhook signing secrets at rest (AES-256-GCM; any string of 32+ characters,
   * hashed to the key). Required in production; the sandbox falls back to a built-in key.
   */
  @ValidateIf((env: Environment) => env.APP_ENV === 'production' || env.WEBHOOK_SECRET_KEY !== undefined)
  @IsString()
  @MinLength(32, { message: 'must be set in production, at least 32 characters' })
  WEBHOOK_SECRET_KEY?: string;

  /**
   * Key that encrypts personal data and stored idempotent responses at rest (AES-256-GCM; any
   * string of 32+ characters, hashed to one key per purpose). Required in production; the
   * sandbox falls back to a built-in key.
   */
  @ValidateIf((env: Environment) => env.APP_ENV === 'production' || env.DATA_ENCRYPTION_KEY !== undefined)
  @IsString()
  @MinLength(32, { message: 'must be set in production, at least 32 characters' })
  DATA_ENCRYPTION_KEY?: string;

  /** How often the outbox relay looks for committed events not yet queued for delivery. */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(10)
  @Max(60000)
  EVENT_RELAY_INTERVAL_MS = 200;

  /** Events the relay moves to the queue per transaction. */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1)
  @Max(5000)
  EVENT_RELAY_BATCH_SIZE = 500;

  /** Open event streams (GET /v1/events/stream) allowed per API key, counted across processes. */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1)
  @Max(1000)
  EVENT_STREAM_MAX_PER_KEY = 10;

  /** How often an idle event stream sends the `: heartbeat` comment. */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(100)
  @Max(60000)
  EVENT_STREAM_HEARTBEAT_MS = 15000;

  /**
   * Bytes an event stream may hold for a reader that does not keep up (beyond what the network
   * takes); past it the stream closes with a comment saying so, and the client resumes from its
   * last id.
   */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1024)
  @Max(64 * 1024 * 1024)
  EVENT_STREAM_BUFFER_BYTES = 1024 * 1024;

  /**
   * How often the trading engine re-evaluates every asset with open orders at the current price
   * (where queue consumers run); 0 turns the sweep off (price helper ticks and session events remain).
   */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(0)
  @Max(600000)
  ENGINE_SWEEP_INTERVAL_MS = 5000;

  /** How often the scheduler looks for jobs that fell due (by each tenant's clock). */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(10)
  @Max(60000)
  SCHEDULER_INTERVAL_MS = 1000;

  /**
   * Bound on taking up a queue job (a scheduled job's run, a webhook delivery) whose process died:
   * another process takes it up within this long (the run's own transaction rolled back, or
   * committed and marked it done). Bull's lock is half of it, renewed and checked every quarter
   * (src/core/queue/queue-lock.ts).
   */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1000)
  @Max(600000)
  JOB_LOCK_MS = 30000;

  /** Days a request log row is kept before the daily purge job deletes it. */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1)
  @Max(3650)
  REQUEST_LOG_RETENTION_DAYS = 30;

  /**
   * Records requests for GET /v1/request-logs. Off only to measure what recording costs
   * (bench/auth): error envelopes still carry request_log_url, which then finds nothing.
   */
  @Transform(({ value }) => value === true || value === 'true' || value === '1')
  REQUEST_LOG_ENABLED = true;

  /**
   * How long a recorded request waits at most before its row is written (one multi-row insert
   * per flush): rows must be readable within 2 s, and each flush costs the API process a
   * statement, so a longer wait writes more rows per statement.
   */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(50)
  @Max(2000)
  REQUEST_LOG_FLUSH_MS = 1000;

  /**
   * `user:password` that opens the queue board at /admin/queues (HTTP Basic). Unset: the board
   * is not mounted at all.
   */
  @IsOptional()
  @Matches(/^[^:\s]{3,}:\S{16,}$/, { message: 'must be user:password, the password at least 16 characters' })
  ADMIN_CREDENTIALS?: string;

  /** Test mode: a transfer goes from pending to processing this long after it was made (clock time). */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(0)
  @Max(30 * 24 * 3600)
  TRANSFER_PROCESSING_DELAY_SECONDS = 3600;

  /** Test mode: business days (the currency's market calendar) from processing to settled or failed. */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(0)
  @Max(10)
  TRANSFER_SETTLEMENT_BUSINESS_DAYS = 1;

  /** Webhook deliveries one process runs at once (a slow endpoint holds at most a share of them). */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_CONCURRENCY = 50;

  /** A receiver must answer 2xx within this time (spec: 30 s); shorter values suit tests. */
  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(100)
  @Max(30000)
  WEBHOOK_TIMEOUT_MS = 30000;

  @IsString()
  STORAGE_DIR = './var/storage';

  @Transform(({ value }) => Number(value))
  @IsInt()
  @Min(1)
  DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;

  /**
   * Bearer token of the sandbox admin API (/v1/sandbox/*: tenants for QA runs). Unset, or with
   * APP_ENV=production, those routes do not exist (404).
   */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'must be at least 16 characters' })
  SANDBOX_ADMIN_TOKEN?: string;

  /** Seed of the simulated price walk: the same seed gives the same prices in every process. */
  @Matches(/^[\x21-\x7e]{1,64}$/, { message: 'must be 1-64 printable characters without spaces' })
  PRICE_SEED = 'sandbox';
}

/** Settings whose values may hold a key or a password: errors name them without echoing the value. */
const SECRET_SETTINGS = new Set([
  'DATABASE_URL',
  'DATABASE_REPLICA_URLS',
  'REDIS_URL',
  'WEBHOOK_SECRET_KEY',
  'DATA_ENCRYPTION_KEY',
  'SANDBOX_ADMIN_TOKEN',
]);

/** Used by ConfigModule: one clear line naming each bad value, then the process stops. */
export function validateEnvironment(raw: Record<string, unknown>): Environment {
  const defined = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== ''));
  const env = plainToInstance(Environment, defined, { exposeDefaultValues: true });
  const errors = validateSync(env, { skipMissingProperties: false, whitelist: false });
  if (errors.length > 0) {
    const lines = errors.map(
      (e) =>
        `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')} ` +
        (SECRET_SETTINGS.has(e.property) ? '(value not shown)' : `(got ${JSON.stringify(e.value)})`),
    );
    throw new Error(`Invalid configuration: ${lines.join(' | ')}`);
  }
  return env;
}
