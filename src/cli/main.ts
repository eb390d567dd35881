import 'reflect-metadata';
import { Command } from 'commander';
import { closeCliContext } from 'src/cli/cli-context';
import { registerSystemCommands } from 'src/cli/commands/system.commands';
import { registerTenantCommands } from 'src/cli/commands/tenant.commands';

/** Support CLI: `npm run cli -- <command>`. Every command prints JSON. */
export function buildProgram(): Command {
  const program = new Command('investment-cli')
    .description('Support tooling for the investment service (tenants, keys, events, data).')
    .showHelpAfterError();
  registerSystemCommands(program);
  registerTenantCommands(program);
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
