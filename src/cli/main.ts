import 'reflect-metadata';
import { Command } from 'commander';
import { closeCliContext } from 'src/cli/cli-context';
import { registerAssetCommands } from 'src/cli/commands/asset.commands';
import { registerBrandingCommands } from 'src/cli/commands/branding.commands';
import { registerCashSweepCommands } from 'src/cli/commands/cash-sweep.commands';
import { registerCorporateActionCommands } from 'src/cli/commands/corporate-action.commands';
import { registerFxJournalCommands } from 'src/cli/commands/fx-journal.commands';
import { registerEventCommands, registerListenCommand } from 'src/cli/commands/events.commands';
import { registerSystemCommands } from 'src/cli/commands/system.commands';
import { registerTenantCommands } from 'src/cli/commands/tenant.commands';
import { registerTradingCommands } from 'src/cli/commands/trading.commands';
import { registerTransferCommands } from 'src/cli/commands/transfer.commands';

/** Support CLI: `npm run cli -- <command>`. Every command prints JSON. */
export function buildProgram(options: { throwOnError?: boolean } = {}): Command {
  const program = new Command('investment-cli')
    .description('Support tooling for the investment service (tenants, keys, events, data).')
    .showHelpAfterError();
  if (options.throwOnError) {
    // Commands registered after this inherit it: errors throw instead of exiting (in-process use).
    program.exitOverride().configureOutput({ writeErr: () => undefined });
  }
  registerSystemCommands(program);
  registerTenantCommands(program);
  registerEventCommands(program);
  registerListenCommand(program);
  registerAssetCommands(program);
  registerTransferCommands(program);
  registerTradingCommands(program);
  registerCashSweepCommands(program);
  registerFxJournalCommands(program);
  registerCorporateActionCommands(program);
  registerBrandingCommands(program);
  return program;
}

async function main(): Promise<void> {
  try {
    await buildProgram().parseAsync(process.argv);
  } catch (err) {
    process.stderr.write(`${JSON.stringify({ error: err instanceof Error ? err.message : String(err) })}\n`);
    process.exitCode = 1;
  } finally {
    await closeCliContext();
  }
}

if (require.main === module) {
  void main();
}
