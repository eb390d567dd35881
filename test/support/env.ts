import { randomBytes } from 'node:crypto';
import { databaseUrl, fileDbPrefix, replicaDatabaseUrl } from './database';
import { TEST_JWT_AUDIENCE, TEST_JWT_ISSUER, testJwtKeys } from './jwt';

/**
 * Runs before each e2e file's imports: the app's configuration is read when its modules are
 * imported, so the file's own database name and the test JWT key are set here.
 */
if (process.env.E2E_BASE_URL) {
  // Remote mode: the deployment is what it says it is (global-setup asked it); this process's
  // database, Redis and queue settings are not used, so none of them can reach the deployment's.
  delete process.env.DATABASE_URL;
  delete process.env.QUEUE_PREFIX;
  process.env.APP_ENV = process.env.E2E_SERVER_APP_ENV;
  process.env.PUBLIC_URL = process.env.E2E_SERVER_PUBLIC_URL;
  process.env.DASHBOARD_URL = process.env.E2E_SERVER_DASHBOARD_URL;
} else {
  // The in-process app has the sandbox admin API on, as a QA sandbox would.
  process.env.SANDBOX_ADMIN_TOKEN ??= 'local-e2e-sandbox-admin-token';
  process.env.TEST_FILE_DB = `${fileDbPrefix()}${randomBytes(6).toString('hex')}`;
  process.env.DATABASE_URL = databaseUrl(process.env.TEST_FILE_DB);
  // Bull queues of this file's app stay apart from other files' apps sharing the same Redis.
  process.env.QUEUE_PREFIX = `test_${process.env.TEST_FILE_DB}`;
  // TEST_DATABASE_REPLICA_URL names a streaming replica of TEST_DATABASE_URL's server: the app then
  // reads what may lag from the file's database there (.ci/run runs the local suite that way).
  const replica = replicaDatabaseUrl(process.env.TEST_FILE_DB);
  if (replica) {
    process.env.DATABASE_REPLICA_URLS = replica;
  }
}
process.env.APP_ENV ??= 'sandbox';
process.env.LOG_LEVEL ??= 'silent';
process.env.MIGRATE_ON_START = 'false';
process.env.JWT_ISSUER = TEST_JWT_ISSUER;
process.env.JWT_AUDIENCE = TEST_JWT_AUDIENCE;
process.env.JWT_PUBLIC_KEY = testJwtKeys().publicPem;
process.env.REDIS_URL ??= 'redis://127.0.0.1:6379/0';
