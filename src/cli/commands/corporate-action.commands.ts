import { readFile } from 'node:fs/promises';
import { Command, InvalidArgumentError } from 'commander';
import { cliContext, printJson } from 'src/cli/cli-context';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { Announcements } from 'src/modules/corporate-actions/announcements.service';
import { CorporateActionSettings } from 'src/modules/corporate-actions/corporate-action-settings';

function parseBps(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 10_000) {
    throw new InvalidArgumentError('must be a whole number of basis points from 0 to 10000');
  }
  return Number(value);
}

export function registerCorporateActionCommands(program: Command): void {
  program
    .command('corporate-actions:import <file>')
    .description(
      'Import market-wide corporate action announcements from a JSON file (an array, as the provider\u2019s feed ' +
        'delivers them): each record has `type`, `symbol` (ticker, id, CUSIP or ISIN) and the announcement\u2019s ' +
        'fields (ex_date, record_date, payable_date, cash_rate, old_rate, new_rate, new_symbol, new_asset_id, ' +
        'declaration_date, description, metadata). A record with the `id` of an announcement not yet processed ' +
        'replaces its terms (a correction, sending corporate_action.updated). Every tenant and mode, tenants ' +
        'created later included, is reached and processes it on its own clock. Each record is one transaction; the ' +
        'first refused record stops the import and is named with the field at fault.',
    )
    .action(async (file: string) => {
      let records: unknown;
      try {
        records = JSON.parse(await readFile(file, 'utf8'));
      } catch (err) {
        throw new Error(`Cannot read ${file} as JSON: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (
        !Array.isArray(records) ||
        records.some((r) => typeof r !== 'object' || r === null || Array.isArray(r))
      ) {
        throw new Error(`${file} must hold a JSON array of announcement objects.`);
      }
      const context = await cliContext();
      const results = await context.get(Announcements).importRecords(records as Record<string, unknown>[]);
      printJson({ imported: results.length, data: results });
    });

  program
    .command('corporate-actions:settings <tenant_id>')
    .description(
      'Show or change a tenant\u2019s corporate action terms: --dividend-withholding-bps, the tax withheld from ' +
        'cash dividends of investors whose country of tax residence is not the US (default 3000, i.e. 30 %). ' +
        'Applies to dividends paid after the change, within 5 seconds.',
    )
    .option('--dividend-withholding-bps <bps>', 'basis points, 0 to 10000', parseBps)
    .action(async (tenantId: string, opts: { dividendWithholdingBps?: number }) => {
      const context = await cliContext();
      if (!(await context.get(TenancyService).findTenant(tenantId))) {
        throw new Error(`No such tenant: '${tenantId}'.`);
      }
      const settings = context.get(CorporateActionSettings);
      const bps =
        opts.dividendWithholdingBps !== undefined
          ? await settings.setWithholdingBps(tenantId, opts.dividendWithholdingBps)
          : await settings.withholdingBps(tenantId);
      printJson({ tenant_id: tenantId, dividend_withholding_bps: bps });
    });
}
