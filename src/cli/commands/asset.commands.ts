import { Command } from 'commander';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { cliContext, printJson } from 'src/cli/cli-context';
import { announceCatalogueChange } from 'src/modules/assets/catalogue-changes';
import { importAssetFiles, ImportResult } from 'src/modules/assets/import/assets-importer';

/**
 * Refreshes assets from JSON or CSV files in the reference-data format, in one transaction: every
 * record is validated first and any problem rejects the whole import. Sets last_synced_at.
 */
export async function importAssets(dataSource: DataSource, files: string[]): Promise<ImportResult> {
  const paths = files.map((file) => resolve(file));
  const missing = paths.filter((path) => !existsSync(path));
  if (missing.length > 0) {
    throw new Error(`No such file: ${missing.join(', ')}`);
  }
  const result = await dataSource.transaction((manager) => importAssetFiles(manager, paths));
  // Committed: search results kept by this process go now (other processes' on the notification).
  announceCatalogueChange({ kind: 'catalogue' });
  return result;
}

export function registerAssetCommands(program: Command): void {
  program
    .command('assets:import <files...>')
    .description(
      'Insert or refresh assets from JSON or CSV files in the format of src/modules/assets/data ' +
        '(CSV: one column per field, bond attributes as bond.<field>); sets last_synced_at.',
    )
    .action(async (files: string[]) => {
      const dataSource = (await cliContext()).get(DataSource);
      printJson(await importAssets(dataSource, files));
    });
}
