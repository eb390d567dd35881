import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CliModule } from 'src/cli/cli.module';

let context: INestApplicationContext | undefined;

/** Boots the CLI's Nest context on first use, so `--help` needs no database. */
export async function cliContext(): Promise<INestApplicationContext> {
  context ??= await NestFactory.createApplicationContext(CliModule, { logger: ['error'] });
  return context;
}

export async function closeCliContext(): Promise<void> {
  await context?.close();
  context = undefined;
}

/** Commands print one JSON document so scripts can read them. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
