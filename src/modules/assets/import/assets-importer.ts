import { readFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { parseAssetCsv } from 'src/modules/assets/import/csv';
import {
  ASSET_COLUMNS,
  AssetRow,
  BOND_COLUMNS,
  BondRow,
  readAssetRecord,
} from 'src/modules/assets/import/asset-record';

/** Anything that runs SQL: a QueryRunner in a migration, an EntityManager or DataSource elsewhere. */
export interface SqlExecutor {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

export interface ImportResult {
  files: string[];
  records: number;
  inserted: number;
  updated: number;
  last_synced_at: string;
}

/** The reference data shipped with the service (copied beside the compiled code in the image). */
export const REFERENCE_DATA_DIR = join(__dirname, '..', 'data');
export const REFERENCE_DATA_FILES = [
  'us-equities.json',
  'africa-equities.json',
  'crypto.json',
  'bonds.json',
].map((file) => join(REFERENCE_DATA_DIR, file));

export class AssetImportError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `${problems.length} problem(s) in the asset file(s): ${problems.slice(0, 20).join('; ')}` +
        (problems.length > 20 ? `; and ${problems.length - 20} more` : ''),
    );
  }
}

const CHUNK = 200;

function placeholders(rows: number, columns: number, extra = ''): string {
  return Array.from(
    { length: rows },
    (_, r) => `(${Array.from({ length: columns }, (_, c) => `$${r * columns + c + 1}`).join(', ')}${extra})`,
  ).join(', ');
}

/** Reads a JSON array or a CSV file (by extension) of asset records. */
export function readAssetFile(path: string): unknown[] {
  const text = readFileSync(path, 'utf8');
  if (extname(path).toLowerCase() === '.csv') {
    return parseAssetCsv(text);
  }
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed)) {
    throw new AssetImportError([`${basename(path)}: must hold a JSON array of asset records`]);
  }
  return parsed;
}

/** Validates every record of every file; any problem rejects the whole import. */
export function validateAssetFiles(files: string[]): AssetRow[] {
  const rows: AssetRow[] = [];
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    readAssetFile(file).forEach((record, index) => {
      const where = `${basename(file)}[${index}]`;
      const result = readAssetRecord(record);
      if ('problems' in result) {
        problems.push(...result.problems.map((p) => `${where} ${p}`));
        return;
      }
      for (const key of [result.row.id, `${result.row.market}:${result.row.symbol}`]) {
        const first = seen.get(key);
        if (first) {
          problems.push(`${where} duplicates ${first} (${key})`);
        }
        seen.set(key, where);
      }
      rows.push(result.row);
    });
  }
  if (problems.length > 0) {
    throw new AssetImportError(problems);
  }
  return rows;
}

/**
 * Inserts or refreshes assets (by id, so a reload keeps ids) and their bond terms, stamping
 * last_synced_at. Assets absent from the files are left as they are.
 */
export async function upsertAssets(
  sql: SqlExecutor,
  rows: AssetRow[],
  syncedAt: Date,
): Promise<{ inserted: number; updated: number }> {
  let inserted = 0;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const params: unknown[] = chunk.flatMap((row) => ASSET_COLUMNS.map((column) => row[column]));
    params.push(syncedAt);
    const syncedParam = `$${params.length}`;
    const result = (await sql.query(
      `INSERT INTO "assets" (${ASSET_COLUMNS.map((c) => `"${c}"`).join(', ')}, "last_synced_at")
       VALUES ${placeholders(chunk.length, ASSET_COLUMNS.length, `, ${syncedParam}`)}
       ON CONFLICT ("id") DO UPDATE SET
         ${ASSET_COLUMNS.filter((c) => c !== 'id')
           .map((c) => `"${c}" = EXCLUDED."${c}"`)
           .join(', ')},
         "last_synced_at" = EXCLUDED."last_synced_at", "updated_at" = now()
       RETURNING (xmax = 0) AS "inserted"`,
      params,
    )) as { inserted: boolean }[];
    inserted += result.filter((r) => r.inserted).length;

    const bonds = chunk.filter((row) => row.bond !== null);
    if (bonds.length > 0) {
      await sql.query(
        `INSERT INTO "asset_bonds" ("asset_id", ${BOND_COLUMNS.map((c) => `"${c}"`).join(', ')})
         VALUES ${placeholders(bonds.length, BOND_COLUMNS.length + 1)}
         ON CONFLICT ("asset_id") DO UPDATE SET ${BOND_COLUMNS.map((c) => `"${c}" = EXCLUDED."${c}"`).join(', ')}`,
        bonds.flatMap((row) => [row.id, ...BOND_COLUMNS.map((column) => (row.bond as BondRow)[column])]),
      );
    }
    const others = chunk.filter((row) => row.bond === null).map((row) => row.id);
    if (others.length > 0) {
      await sql.query(`DELETE FROM "asset_bonds" WHERE "asset_id" = ANY($1)`, [others]);
    }
  }
  return { inserted, updated: rows.length - inserted };
}

/** Validates then loads asset files in one go (the caller provides the transaction). */
export async function importAssetFiles(
  sql: SqlExecutor,
  files: string[],
  syncedAt = new Date(),
): Promise<ImportResult> {
  const rows = validateAssetFiles(files);
  const { inserted, updated } = await upsertAssets(sql, rows, syncedAt);
  return { files, records: rows.length, inserted, updated, last_synced_at: syncedAt.toISOString() };
}
