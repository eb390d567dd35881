import type { DataSource } from 'typeorm';

/** Arbitrary constant: the advisory lock that serialises migration runs across processes. */
const MIGRATION_LOCK_ID = 7_301_442;

/**
 * Runs pending migrations under a PostgreSQL advisory lock, so an API and a worker starting
 * together do not race on the same migration.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await runner.release();
  }
}
