import { Command, InvalidArgumentError } from 'commander';
import { cliContext, printJson } from 'src/cli/cli-context';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { TransferSettingsService, TermsChange } from 'src/modules/transfers/transfer-settings.service';
import type { TransferTerms } from 'src/modules/transfers/transfer-terms';

function parseDecimal(value: string): string {
  if (!/^(0|[1-9]\d{0,11})(\.\d{1,4})?$/.test(value)) {
    throw new InvalidArgumentError('must be a decimal such as 0.50 (at most 4 decimals)');
  }
  return value;
}

function parseBps(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 10_000) {
    throw new InvalidArgumentError('must be whole basis points from 0 to 10000');
  }
  return Number(value);
}

export function termsJson(tenantId: string, terms: TransferTerms) {
  return {
    tenant_id: tenantId,
    deposit_fee: { flat: terms.depositFeeFlat.toFixed(), bps: terms.depositFeeBps },
    withdrawal_fee: { flat: terms.withdrawalFeeFlat.toFixed(), bps: terms.withdrawalFeeBps },
    min_amount: terms.minAmount.toFixed(),
    max_amount: terms.maxAmount.toFixed(),
  };
}

export function registerTransferCommands(program: Command): void {
  program
    .command('transfers:settings <tenant_id>')
    .description(
      'Show or change a tenant\u2019s transfer fees (flat in the transfer\u2019s currency plus basis points of the amount; ' +
        'default zero) and per-transfer bounds (default 1 to 1000000). Changes apply within 5 seconds.',
    )
    .option('--deposit-fee-flat <amount>', 'flat fee per deposit', parseDecimal)
    .option('--deposit-fee-bps <bps>', 'deposit fee in basis points of the amount', parseBps)
    .option('--withdrawal-fee-flat <amount>', 'flat fee per withdrawal', parseDecimal)
    .option('--withdrawal-fee-bps <bps>', 'withdrawal fee in basis points of the amount', parseBps)
    .option('--min-amount <amount>', 'smallest amount per transfer', parseDecimal)
    .option('--max-amount <amount>', 'largest amount per transfer', parseDecimal)
    .action(async (tenantId: string, opts: TermsChange) => {
      const context = await cliContext();
      if (!(await context.get(TenancyService).findTenant(tenantId))) {
        throw new Error(`No such tenant: '${tenantId}'.`);
      }
      const settings = context.get(TransferSettingsService);
      const changed = Object.values(opts).some((v) => v !== undefined);
      const terms = changed ? await settings.update(tenantId, opts) : await settings.terms(tenantId);
      printJson(termsJson(tenantId, terms));
    });
}
