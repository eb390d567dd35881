import { Command, InvalidArgumentError } from 'commander';
import { cliContext, printJson } from 'src/cli/cli-context';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { BrandingService } from 'src/modules/statements/branding.service';

function parseColor(value: string): string {
  if (!/^#[0-9a-f]{6}$/.test(value)) {
    throw new InvalidArgumentError('must be a colour written #rrggbb (lower-case hex)');
  }
  return value;
}

function parseName(value: string): string {
  if (value.length < 1 || value.length > 100) {
    throw new InvalidArgumentError('must be 1 to 100 characters');
  }
  return value;
}

export function registerBrandingCommands(program: Command): void {
  program
    .command('tenants:branding <tenant_id>')
    .description(
      'Show or change the display name and accent colour printed on a tenant\u2019s trade confirmations and ' +
        'account statements (documents made from now on).',
    )
    .option('--display-name <name>', 'name at the top of every document', parseName)
    .option('--accent-color <#rrggbb>', 'accent colour', parseColor)
    .action(async (tenantId: string, opts: { displayName?: string; accentColor?: string }) => {
      const context = await cliContext();
      if (!(await context.get(TenancyService).findTenant(tenantId))) {
        throw new Error(`No such tenant: '${tenantId}'.`);
      }
      const brandings = context.get(BrandingService);
      const branding =
        opts.displayName !== undefined || opts.accentColor !== undefined
          ? await brandings.update(tenantId, {
              ...(opts.displayName !== undefined ? { display_name: opts.displayName } : {}),
              ...(opts.accentColor !== undefined ? { accent_color: opts.accentColor } : {}),
            })
          : await brandings.get(tenantId);
      printJson({ tenant_id: tenantId, ...branding });
    });
}
