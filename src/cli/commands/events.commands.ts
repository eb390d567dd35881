import { Command, InvalidArgumentError } from 'commander';
import { cliContext, printJson } from 'src/cli/cli-context';
import { forwardEvents } from 'src/cli/event-forwarder';
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

/** `events:listen`: forwards the event stream to a local URL, signed like webhooks (like `stripe listen`). */
export function registerListenCommand(program: Command): void {
  program
    .command('events:listen')
    .description(
      'Hold GET /v1/events/stream and POST each event to --forward-to with Standard Webhooks signatures ' +
        '(prints the signing secret first, then one JSON line per event). Keys from --public-key/--secret ' +
        'or INVESTMENT_PUBLIC_KEY/INVESTMENT_SECRET.',
    )
    .requiredOption('--forward-to <url>', 'where each event is POSTed, e.g. http://localhost:4000/hooks')
    .option('--base-url <url>', 'the service', process.env.INVESTMENT_BASE_URL ?? 'http://localhost:3000')
    .option('--public-key <pk>', 'API key public part', process.env.INVESTMENT_PUBLIC_KEY)
    .option('--secret <sk>', 'API key secret', process.env.INVESTMENT_SECRET)
    .option('--types <list>', 'comma-separated event names and wildcards (order.*)')
    .option('--since <evt_id>', 'replay the events after this one first')
    .option('--signing-secret <whsec>', 'sign with this whsec_ secret instead of a new one')
    .action(async (opts: ListenCommandOptions) => {
      if (!opts.publicKey || !opts.secret) {
        throw new Error(
          'Give the API key: --public-key and --secret (or INVESTMENT_PUBLIC_KEY and INVESTMENT_SECRET).',
        );
      }
      const stop = new AbortController();
      process.once('SIGINT', () => stop.abort());
      process.once('SIGTERM', () => stop.abort());
      await forwardEvents({
        baseUrl: opts.baseUrl,
        publicKey: opts.publicKey,
        secret: opts.secret,
        forwardTo: opts.forwardTo,
        types: opts.types?.split(','),
        sinceId: opts.since,
        signingSecret: opts.signingSecret,
        signal: stop.signal,
        report: (line) => process.stdout.write(`${JSON.stringify(line)}\n`),
      });
    });
}

interface ListenCommandOptions {
  forwardTo: string;
  baseUrl: string;
  publicKey?: string;
  secret?: string;
  types?: string;
  since?: string;
  signingSecret?: string;
}
