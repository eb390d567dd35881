import { randomBytes } from 'node:crypto';
import { databaseUrl, fileDbPrefix } from './database';
import { TEST_JWT_AUDIENCE, TEST_JWT_ISSUER, testJwtKeys } from './jwt';

/**
 * Runs before each e2e file's imports: the app's configuration is read when its modules are
 * imported, so the file's own database name and the test JWT key are set here.
 */
if (!process.env.E2E_BASE_URL) {
  process.env.TEST_FILE_DB = `${fileDbPrefix()}${randomBytes(6).toString('hex')}`;
  process.env.DATABASE_URL = databaseUrl(process.env.TEST_FILE_DB);
  // Bull queues of this file's app stay apart from other files' apps sharing the same Redis.
  process.env.QUEUE_PREFIX = `test_${process.env.TEST_FILE_DB}`;
}
process.env.APP_ENV ??= 'sandbox';
process.env.LOG_LEVEL ??= 'silent';
process.env.MIGRATE_ON_START = 'false';
process.env.JWT_ISSUER = TEST_JWT_ISSUER;
process.env.JWT_AUDIENCE = TEST_JWT_AUDIENCE;
process.env.JWT_PUBLIC_KEY = testJwtKeys().publicPem;
process.env.REDIS_URL ??= 'redis://127.0.0.1:6379/0';
