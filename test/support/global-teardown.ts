import { RUN_DB_PREFIX, runId, withAdmin } from './database';
import { deleteTenant, listRunTenants, runTenantPrefix } from './remote';

/**
 * Remote mode: every file deletes its own tenants; any still there (a file that crashed) are
 * erased here, and the run fails loudly if one survives.
 */
async function eraseRunTenants(): Promise<void> {
  const leftovers = await listRunTenants();
  for (const tenantId of leftovers) {
    await deleteTenant(tenantId);
  }
  const remaining = await listRunTenants();
  process.stdout.write(
    `Remote mode: ${leftovers.length} tenant(s) of this run were left by their files and erased now; ` +
      `${remaining.length} remain named "${runTenantPrefix()}...".\n`,
  );
  if (remaining.length > 0) {
    throw new Error(`Tenants left behind on the sandbox: ${remaining.join(', ')}`);
  }
}

/** How long Jest may take to exit once the run is over before the run is failed. */
const EXIT_GRACE_MS = 60_000;

/**
 * Jest runs the files in band on two cores, so a handle a file left open (a server a failed test
 * never stopped) keeps the process alive for good: CI would then wait out its whole time limit.
 * The timer does not hold the process itself; it fires only if something else does, and then fails
 * the run, naming the cure.
 */
function failIfJestCannotExit(): void {
  setTimeout(() => {
    process.stderr.write(
      `Jest has not exited ${EXIT_GRACE_MS / 1000} s after the run: a handle is still open ` +
        '(find it with --detectOpenHandles). Failing the run.\n',
    );
    process.exit(1);
  }, EXIT_GRACE_MS).unref();
}

/** Drops this run's databases and the Redis keys of its queues. */
export default async function globalTeardown(): Promise<void> {
  failIfJestCannotExit();
  if (process.env.E2E_BASE_URL) {
    await eraseRunTenants();
    return;
  }
  const prefix = `${RUN_DB_PREFIX}${runId()}_`;
  await withAdmin(async (admin) => {
    const rows = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1`,
      [`${prefix}%`],
    );
    for (const { datname } of rows.rows) {
      await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  });
  // Loaded here: its `src/...` imports resolve only through the NODE_PATH global-setup sets for a
  // local run, and a remote run returned above.
  const { unlinkKeysMatching } = await import('./redis');
  await unlinkKeysMatching(`test_${prefix}*`);
}
