import { Command, InvalidArgumentError } from 'commander';
import { cliContext, printJson } from 'src/cli/cli-context';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { FxSettingsService, MAX_FX_SPREAD_BPS } from 'src/modules/fx/fx-settings.service';
import { JournalLimits, JournalSettingsService } from 'src/modules/journals/journal-settings.service';

function parseSpread(value: string): number {
  if (!/^\d{1,4}$/.test(value) || Number(value) > MAX_FX_SPREAD_BPS) {
    throw new InvalidArgumentError(`must be whole basis points from 0 to ${MAX_FX_SPREAD_BPS}`);
  }
  return Number(value);
}

function parseLimit(value: string): string {
  if (!/^[1-9]\d{0,11}(\.\d{1,2})?$/.test(value)) {
    throw new InvalidArgumentError('must be an amount above zero such as 10000 (at most 2 decimals)');
  }
  return value;
}

async function requireTenant(tenantId: string) {
  const context = await cliContext();
  if (!(await context.get(TenancyService).findTenant(tenantId))) {
    throw new Error(`No such tenant: '${tenantId}'.`);
  }
  return context;
}

export function journalLimitsJson(tenantId: string, limits: JournalLimits) {
  return {
    tenant_id: tenantId,
    journal_limit_per_entry: limits.perEntry.toFixed(),
    journal_limit_per_day_per_account: limits.perDayPerAccount.toFixed(),
  };
}

export function registerFxJournalCommands(program: Command): void {
  program
    .command('fx:settings <tenant_id>')
    .description(
      'Show or change the spread a tenant keeps on currency conversions (fx_spread_bps, default 100). ' +
        'Applies to quotes and conversions within 5 seconds.',
    )
    .option('--fx-spread-bps <bps>', 'spread in basis points of the mid rate', parseSpread)
    .action(async (tenantId: string, opts: { fxSpreadBps?: number }) => {
      const settings = (await requireTenant(tenantId)).get(FxSettingsService);
      const bps =
        opts.fxSpreadBps !== undefined
          ? await settings.update(tenantId, opts.fxSpreadBps)
          : await settings.spreadBps(tenantId);
      printJson({ tenant_id: tenantId, fx_spread_bps: bps });
    });
  program
    .command('journals:settings <tenant_id>')
    .description(
      'Show or change a tenant\u2019s journal limits: per JNLC (default 10000) and per account and day of JNLC ' +
        'received (default 50000), in the journal\u2019s currency. Apply within 5 seconds.',
    )
    .option('--journal-limit-per-entry <amount>', 'largest JNLC', parseLimit)
    .option(
      '--journal-limit-per-day-per-account <amount>',
      'most one account receives by JNLC a day',
      parseLimit,
    )
    .action(
      async (
        tenantId: string,
        opts: { journalLimitPerEntry?: string; journalLimitPerDayPerAccount?: string },
      ) => {
        const settings = (await requireTenant(tenantId)).get(JournalSettingsService);
        const changed =
          opts.journalLimitPerEntry !== undefined || opts.journalLimitPerDayPerAccount !== undefined;
        const limits = changed
          ? await settings.update(tenantId, {
              perEntry: opts.journalLimitPerEntry,
              perDayPerAccount: opts.journalLimitPerDayPerAccount,
            })
          : await settings.limits(tenantId);
        printJson(journalLimitsJson(tenantId, limits));
      },
    );
}
