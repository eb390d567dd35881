import { Command } from 'commander';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { cliContext, printJson } from 'src/cli/cli-context';
import { createTenant } from 'src/cli/commands/tenant.commands';
import { AppConfig } from 'src/core/config/app-config.service';
import { dataSourceOptions } from 'src/core/database/data-source-options';
import { runMigrations } from 'src/core/database/migrate';
import { TenancyService } from 'src/core/tenancy/tenancy.service';

export const SANDBOX_CREDENTIALS_FILE = '.sandbox-credentials.json';

export function registerSystemCommands(program: Command): void {
  program
    .command('db:migrate')
    .description('Apply pending migrations (under an advisory lock).')
    .action(async () => {
      // A bare connection: the application context would migrate while booting
      // (MIGRATE_ON_START) and leave nothing for this command to report.
      const dataSource = await new DataSource(
        dataSourceOptions(new AppConfig().get('DATABASE_URL')),
      ).initialize();
      try {
        printJson({ applied: await runMigrations(dataSource) });
      } finally {
        await dataSource.destroy();
      }
    });

  program
    .command('sandbox:init')
    .description('Create the demo tenant once (all add-ons, fixed income on) and write its test credentials.')
    .option('--file <path>', 'where to write the credentials (git-ignored)', SANDBOX_CREDENTIALS_FILE)
    .action(async (opts: { file: string }) => {
      const file = resolve(opts.file);
      if (existsSync(file)) {
        const saved = JSON.parse(readFileSync(file, 'utf8')) as { tenant_id: string };
        const tenancy = (await cliContext()).get(TenancyService);
        if (await tenancy.findTenant(saved.tenant_id)) {
          printJson({ ...saved, file, created: false });
          return;
        }
      }
      const tenant = await createTenant('Sandbox demo partner', ['market_data', 'cash_management'], true);
      writeFileSync(file, `${JSON.stringify(tenant, null, 2)}\n`, { mode: 0o600 });
      printJson({ ...tenant, file, created: true });
    });
}
