import { Command, InvalidArgumentError } from 'commander';
import { cliContext, printJson } from 'src/cli/cli-context';
import { isSupportedCurrency } from 'src/core/money/currencies';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { DefaultTierRates } from 'src/modules/cash-sweep/default-tier-rates.service';

function parseBps(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 10_000) {
    throw new InvalidArgumentError('must be whole basis points from 0 to 10000');
  }
  return Number(value);
}

function parseCurrency(value: string): string {
  const code = value.toUpperCase();
  if (!isSupportedCurrency(code)) {
    throw new InvalidArgumentError('must be a supported ISO 4217 currency such as USD');
  }
  return code;
}

export function registerCashSweepCommands(program: Command): void {
  program
    .command('cash-sweep:rates <tenant_id>')
    .description(
      'Show or change the rates of a tenant\u2019s default APR tier (`standard` unless the partner chose another), ' +
        'test and live modes alike: the investor\u2019s share and the partner\u2019s (correspondent) share in basis ' +
        'points a year (default 350 and 50). Applies from the next day accrued.',
    )
    .option('--currency <code>', 'currency of the tier (default USD)', parseCurrency)
    .option('--account-rate-bps <bps>', 'the investor\u2019s rate', parseBps)
    .option('--correspondent-rate-bps <bps>', 'the partner\u2019s rate', parseBps)
    .action(
      async (
        tenantId: string,
        opts: { currency?: string; accountRateBps?: number; correspondentRateBps?: number },
      ) => {
        const context = await cliContext();
        if (!(await context.get(TenancyService).findTenant(tenantId))) {
          throw new Error(`No such tenant: '${tenantId}'.`);
        }
        const tiers = await context.get(DefaultTierRates).set(tenantId, opts.currency ?? 'USD', opts);
        printJson(
          tiers.map((t) => ({
            id: t.id,
            livemode: t.livemode,
            name: t.name,
            currency: t.currency,
            account_rate_bps: t.account_rate_bps,
            correspondent_rate_bps: t.correspondent_rate_bps,
            is_default: t.is_default,
          })),
        );
      },
    );
}
