import { newWebhookSecret, signPayload } from 'src/modules/webhooks/webhook-secrets';

export interface ForwardOptions {
  /** The service's URL (the sandbox the developer works against). */
  baseUrl: string;
  publicKey: string;
  secret: string;
  /** Where each event is POSTed, e.g. http://localhost:4000/hooks. */
  forwardTo: string;
  /** Event names and wildcards; every event when absent. */
  types?: string[];
  /** Resume after this event id. */
  sinceId?: string;
  /** The Standard Webhooks secret that signs the forwarded requests; a new one when absent. */
  signingSecret?: string;
  signal: AbortSignal;
  /** One line per step: ready (with the signing secret), each forward, each reconnection. */
  report(line: Record<string, unknown>): void;
}

const RECONNECT_MS = 1_000;

/**
 * `stripe listen` for this service: holds GET /v1/events/stream and POSTs each event to a local
 * URL as a webhook would arrive (same body, Standard Webhooks headers signed with the signing
 * secret), resuming from the last event after a dropped connection.
 */
export async function forwardEvents(options: ForwardOptions): Promise<void> {
  const signingSecret = options.signingSecret ?? newWebhookSecret();
  let lastId = options.sinceId;
  options.report({ ready: true, forwarding_to: options.forwardTo, signing_secret: signingSecret });
  while (!options.signal.aborted) {
    try {
      const response = await fetch(streamUrl(options), {
        headers: {
          Authorization: `Basic ${Buffer.from(`${options.publicKey}:${options.secret}`).toString('base64')}`,
          Accept: 'text/event-stream',
          ...(lastId ? { 'Last-Event-ID': lastId } : {}),
        },
        signal: options.signal,
      });
      if (!response.ok || !response.body) {
        const text = await response.text();
        if (response.status >= 400 && response.status < 500 && response.status !== 429) {
          throw new Error(`GET /v1/events/stream answered ${response.status}: ${text}`);
        }
        options.report({ reconnecting: true, status: response.status });
      } else {
        for await (const { id, data } of sseEvents(response.body)) {
          lastId = id;
          await forward(options, signingSecret, id, data);
        }
      }
    } catch (err) {
      if (options.signal.aborted) {
        return;
      }
      if (err instanceof Error && err.message.startsWith('GET /v1/events/stream')) {
        throw err;
      }
      options.report({ reconnecting: true, reason: err instanceof Error ? err.message : String(err) });
    }
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
  }
}

function streamUrl(options: ForwardOptions): URL {
  const url = new URL('/v1/events/stream', options.baseUrl);
  if (options.types?.length) {
    url.searchParams.set('types', options.types.join(','));
  }
  return url;
}

async function forward(
  options: ForwardOptions,
  signingSecret: string,
  id: string,
  body: string,
): Promise<void> {
  const timestamp = Math.floor(Date.now() / 1000);
  const event = (JSON.parse(body) as { event?: string }).event;
  try {
    const res = await fetch(options.forwardTo, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signPayload(signingSecret, id, timestamp, body),
      },
      body,
      signal: AbortSignal.any([options.signal, AbortSignal.timeout(30_000)]),
    });
    await res.arrayBuffer().catch(() => undefined);
    options.report({ event_id: id, event, status: res.status });
  } catch (err) {
    options.report({ event_id: id, event, error: err instanceof Error ? err.message : String(err) });
  }
}

/** The `id` and `data` of each Server-Sent Events message with data (comments and retry skipped). */
async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ id: string; data: string }> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = new Map<string, string>();
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        if (colon > 0) {
          fields.set(line.slice(0, colon), line.slice(colon + 1).replace(/^ /, ''));
        }
      }
      const data = fields.get('data');
      const id = fields.get('id');
      if (data !== undefined && id !== undefined) {
        yield { id, data };
      }
    }
  }
}
