import { Command, InvalidArgumentError } from 'commander';
import { cliContext, printJson } from 'src/cli/cli-context';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { CommissionSettings } from 'src/modules/trading/commissions';
import { COMMISSION_TYPES, CommissionType } from 'src/modules/trading/order-types';

function parseType(value: string): CommissionType {
  if (!(COMMISSION_TYPES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`must be one of ${COMMISSION_TYPES.join(', ')}`);
  }
  return value as CommissionType;
}

function parseAmount(value: string): string {
  if (!/^(0|[1-9]\d{0,11})(\.\d{1,4})?$/.test(value)) {
    throw new InvalidArgumentError('must be a decimal such as 0.50 (at most 4 decimals)');
  }
  return value;
}

export function registerTradingCommands(program: Command): void {
  program
    .command('trading:commission <tenant_id>')
    .description(
      'Show or change a tenant\u2019s order commission: --type notional (a flat amount per order, charged on the first ' +
        'fill), qty (per unit filled) or bps (basis points of each fill\u2019s value), with --amount. Default zero. ' +
        'Applies to orders placed after the change, within 5 seconds.',
    )
    .option('--type <type>', 'notional, qty or bps', parseType)
    .option('--amount <amount>', 'flat amount, amount per unit, or basis points', parseAmount)
    .action(async (tenantId: string, opts: { type?: CommissionType; amount?: string }) => {
      const context = await cliContext();
      if (!(await context.get(TenancyService).findTenant(tenantId))) {
        throw new Error(`No such tenant: '${tenantId}'.`);
      }
      const settings = context.get(CommissionSettings);
      const current = await settings.terms(tenantId);
      const terms =
        opts.type !== undefined || opts.amount !== undefined
          ? await settings.update(
              tenantId,
              opts.type ?? current.type,
              opts.amount ?? current.amount.toFixed(),
            )
          : current;
      printJson({ tenant_id: tenantId, commission_type: terms.type, amount: terms.amount.toFixed() });
    });
}
