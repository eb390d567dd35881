import { Command, InvalidArgumentError } from 'commander';
import { cliContext, printJson } from 'src/cli/cli-context';
import { DeadLettersService } from 'src/modules/webhooks/delivery/dead-letters.service';
import { WebhookReplayService } from 'src/modules/webhooks/delivery/webhook-replay.service';

function parseLimit(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 10_000) {
    throw new InvalidArgumentError('must be an integer from 1 to 10000');
  }
  return n;
}

export async function replayEvent(eventId: string, endpointId?: string) {
  const replay = (await cliContext()).get(WebhookReplayService);
  return { event_id: eventId, replayed: await replay.replayEvent(eventId, endpointId) };
}

export async function listDeadLetters(options: {
  tenant?: string;
  includeReplayed?: boolean;
  limit?: number;
}) {
  const deadLetters = (await cliContext()).get(DeadLettersService);
  const rows = await deadLetters.list({
    tenantId: options.tenant,
    includeReplayed: options.includeReplayed,
    limit: options.limit,
  });
  return { dead_letters: rows.map(DeadLettersService.toJson) };
}

export async function replayDeadLetters(id: string | undefined, options: { all?: boolean; tenant?: string }) {
  const replay = (await cliContext()).get(WebhookReplayService);
  if (options.all === Boolean(id)) {
    throw new Error('Give one dead letter id (dl_...) or --all.');
  }
  if (id) {
    return { dead_letter_id: id, ...(await replay.replayDeadLetter(id)) };
  }
  return replay.replayAllDeadLetters(options.tenant);
}

/** Support commands for event delivery: replays keep the event id, so receivers deduplicate. */
export function registerEventCommands(program: Command): void {
  program
    .command('events:replay <evt_id>')
    .description(
      'Deliver an event again to the endpoints subscribed to it now (or to one endpoint), keeping its id.',
    )
    .option('--endpoint <we_id>', 'only this webhook endpoint')
    .action(async (eventId: string, opts: { endpoint?: string }) => {
      printJson(await replayEvent(eventId, opts.endpoint));
    });

  program
    .command('dead-letters:list')
    .description(
      'Deliveries that failed every retry (newest first); replayed ones only with --include-replayed.',
    )
    .option('--tenant <tenant_id>', 'only this tenant (ten_...)')
    .option('--include-replayed', 'also list dead letters already replayed', false)
    .option('--limit <n>', 'at most this many (default 100)', parseLimit)
    .action(async (opts: { tenant?: string; includeReplayed: boolean; limit?: number }) => {
      printJson(await listDeadLetters(opts));
    });

  program
    .command('dead-letters:replay [dl_id]')
    .description('Replay one dead letter, or --all not yet replayed (optionally of one --tenant).')
    .option('--all', 'every dead letter not yet replayed (up to 10,000)', false)
    .option('--tenant <tenant_id>', 'with --all: only this tenant')
    .action(async (id: string | undefined, opts: { all: boolean; tenant?: string }) => {
      printJson(await replayDeadLetters(id, opts));
    });
}
