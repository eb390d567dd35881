import { Command, InvalidArgumentError, Option } from 'commander';
import { cliContext, printJson } from 'src/cli/cli-context';
import { ApiKeyEntity } from 'src/core/tenancy/api-key.entity';
import { CreatedKey, TenancyService } from 'src/core/tenancy/tenancy.service';
import { Product, PRODUCTS, TenantEntity } from 'src/core/tenancy/tenant.entity';

function parseProducts(value: string, previous: Product[] = []): Product[] {
  const items = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const item of items) {
    if (!(PRODUCTS as readonly string[]).includes(item)) {
      throw new InvalidArgumentError(`unknown product '${item}' (known: ${PRODUCTS.join(', ')})`);
    }
  }
  return [...previous, ...(items as Product[])];
}

function parseOnOff(value: string): boolean {
  if (value !== 'on' && value !== 'off') {
    throw new InvalidArgumentError("must be 'on' or 'off'");
  }
  return value === 'on';
}

function parseDate(value: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    throw new InvalidArgumentError('must be an ISO 8601 date-time');
  }
  return date;
}

export function keyJson(created: CreatedKey) {
  return { id: created.key.id, public_key: created.key.public_key, secret: created.secret };
}

export function tenantJson(tenant: TenantEntity) {
  return {
    tenant_id: tenant.id,
    name: tenant.name,
    products: tenant.products,
    fixed_income_enabled: tenant.fixed_income_enabled,
  };
}

function keyRecordJson(key: ApiKeyEntity) {
  return {
    id: key.id,
    tenant_id: key.tenant_id,
    account_id: key.investor_id,
    environment: key.environment,
    public_key: key.public_key,
    status: TenancyService.statusOf(key),
    expires_at: key.expires_at?.toISOString() ?? null,
  };
}

export async function createTenant(name: string, products: Product[], fixedIncome: boolean) {
  const tenancy = (await cliContext()).get(TenancyService);
  const { tenant, test, live } = await tenancy.createTenant(name, products, fixedIncome);
  return { ...tenantJson(tenant), keys: { test: keyJson(test), live: keyJson(live) } };
}

export function registerTenantCommands(program: Command): void {
  registerTenantRecordCommands(program);
  registerKeyCommands(program);
}

/** tenants:create and tenants:update. */
function registerTenantRecordCommands(program: Command): void {
  program
    .command('tenants:create')
    .description('Create a tenant with one test and one live key; prints the secrets once.')
    .requiredOption('--name <name>', 'display name of the partner')
    .option('--products <list>', `comma-separated add-ons: ${PRODUCTS.join(', ')}`, parseProducts, [])
    .option('--fixed-income', 'switch fixedIncomeEnabled on', false)
    .action(async (opts: { name: string; products: Product[]; fixedIncome: boolean }) => {
      printJson(await createTenant(opts.name, opts.products, opts.fixedIncome));
    });

  program
    .command('tenants:update <tenant_id>')
    .description('Enable or disable add-on products and the fixed-income flag.')
    .option('--enable <product>', 'enable a product (repeatable or comma-separated)', parseProducts, [])
    .option('--disable <product>', 'disable a product (repeatable or comma-separated)', parseProducts, [])
    .addOption(new Option('--fixed-income <on|off>', 'switch fixedIncomeEnabled').argParser(parseOnOff))
    .action(
      async (tenantId: string, opts: { enable: Product[]; disable: Product[]; fixedIncome?: boolean }) => {
        const tenancy = (await cliContext()).get(TenancyService);
        const tenant = await tenancy.updateTenant(tenantId, {
          enable: opts.enable,
          disable: opts.disable,
          fixedIncomeEnabled: opts.fixedIncome,
        });
        printJson(tenantJson(tenant));
      },
    );
}

/** keys:create and keys:revoke. */
function registerKeyCommands(program: Command): void {
  program
    .command('keys:create')
    .description(
      'Create an API key for a tenant (optionally scoped to one investor); prints the secret once.',
    )
    .requiredOption('--tenant <tenant_id>', 'tenant id (ten_...)')
    .addOption(
      new Option('--environment <env>', 'key environment')
        .choices(['TEST', 'PRODUCTION'])
        .makeOptionMandatory(),
    )
    .option('--investor <investor_id>', 'scope the key to one investor (inv_...)')
    .option('--expires-at <iso>', 'expiry date-time', parseDate)
    .option('--name <name>', 'label of the key', '')
    .action(
      async (opts: {
        tenant: string;
        environment: 'TEST' | 'PRODUCTION';
        investor?: string;
        expiresAt?: Date;
        name: string;
      }) => {
        const tenancy = (await cliContext()).get(TenancyService);
        if (!(await tenancy.findTenant(opts.tenant))) {
          throw new Error(`No such tenant: '${opts.tenant}'.`);
        }
        const created = await tenancy.createKey({
          tenantId: opts.tenant,
          environment: opts.environment,
          investorId: opts.investor ?? null,
          expiresAt: opts.expiresAt ?? null,
          name: opts.name,
        });
        printJson({ ...keyRecordJson(created.key), secret: created.secret });
      },
    );

  program
    .command('keys:revoke <apk_id>')
    .description('Revoke an API key; every process refuses it within 5 seconds.')
    .action(async (keyId: string) => {
      const tenancy = (await cliContext()).get(TenancyService);
      printJson(keyRecordJson(await tenancy.revokeKey(keyId)));
    });
}
