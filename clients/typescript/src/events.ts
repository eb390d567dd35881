import { InvestmentServiceError } from './errors.js';
import type { components } from './generated/openapi.js';
import { authorization, backoffMs, ClientConfig, retryAfterMs, sleep } from './transport.js';

/** An event as webhooks deliver it and the stream sends it. */
export type EventRecord = components['schemas']['EventDto'];

export interface StreamOptions {
  /** Event names and wildcards (`order.*`); every event when absent. */
  types?: string[];
  /** Start after this event id (the events after it are replayed first). */
  sinceId?: string;
  /** Ends the iteration (as a `break` out of the loop does). */
  signal?: AbortSignal;
}

/** No byte for this long (the server sends a heartbeat every 15 s): the connection is presumed dead. */
const IDLE_TIMEOUT_MS = 45_000;

/**
 * The events of GET /v1/events/stream as an async iterable. After a dropped connection, a
 * server restart or a "fell behind" close it reconnects by itself with Last-Event-ID, so no event
 * is skipped; a refused request (bad `types`, unknown `sinceId`) rejects with InvestmentServiceError.
 */
export async function* streamEvents(
  config: ClientConfig,
  options: StreamOptions = {},
): AsyncGenerator<EventRecord, void, undefined> {
  const send = config.fetch ?? ((request: Request) => globalThis.fetch(request));
  let lastId = options.sinceId;
  let retryMs = 1_000;
  let failures = 0;
  while (!options.signal?.aborted) {
    const controller = new AbortController();
    const abort = () => controller.abort();
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      const url = new URL('/v1/events/stream', config.baseUrl);
      if (options.types?.length) {
        url.searchParams.set('types', options.types.join(','));
      }
      const headers: Record<string, string> = {
        Authorization: authorization(config),
        Accept: 'text/event-stream',
      };
      if (lastId) {
        headers['Last-Event-ID'] = lastId;
      }
      let response: Response;
      try {
        response = await send(new Request(url, { headers, signal: controller.signal }));
      } catch {
        await sleep(backoffMs(failures++), options.signal);
        continue;
      }
      if (response.status === 429 || response.status >= 500) {
        await response.body?.cancel().catch(() => undefined);
        await sleep(retryAfterMs(response) ?? backoffMs(failures++), options.signal);
        continue;
      }
      if (!response.ok || !response.body) {
        throw await InvestmentServiceError.fromResponse(response);
      }
      failures = 0;
      for await (const message of messages(response.body, controller)) {
        if (message.retry !== undefined) {
          retryMs = message.retry;
        }
        if (message.data !== undefined) {
          const record = JSON.parse(message.data) as EventRecord;
          lastId = message.id ?? record.id;
          yield record;
        }
      }
      await sleep(retryMs, options.signal); // the server ended the stream: resume after its `retry`
    } catch (err) {
      if (err instanceof InvestmentServiceError) {
        throw err;
      }
      if (options.signal?.aborted) {
        return;
      }
      await sleep(backoffMs(failures++), options.signal); // the connection dropped mid-stream
    } finally {
      options.signal?.removeEventListener('abort', abort);
      controller.abort();
    }
  }
}

interface SseMessage {
  id?: string;
  event?: string;
  data?: string;
  retry?: number;
}

/** Server-Sent Events messages of a body; aborts the connection when it stays silent too long. */
async function* messages(
  body: ReadableStream<Uint8Array>,
  controller: AbortController,
): AsyncGenerator<SseMessage> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let idle = setTimeout(() => controller.abort(), IDLE_TIMEOUT_MS);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        return;
      }
      clearTimeout(idle);
      idle = setTimeout(() => controller.abort(), IDLE_TIMEOUT_MS);
      buffer += value;
      let end: RegExpExecArray | null;
      while ((end = /\r\n\r\n|\n\n|\r\r/.exec(buffer)) !== null) {
        const block = buffer.slice(0, end.index);
        buffer = buffer.slice(end.index + end[0].length);
        const message = parse(block);
        if (message) {
          yield message;
        }
      }
    }
  } finally {
    clearTimeout(idle);
    await reader.cancel().catch(() => undefined);
  }
}

function parse(block: string): SseMessage | null {
  const message: SseMessage = {};
  const data: string[] = [];
  for (const line of block.split(/\r\n|\r|\n/)) {
    if (line === '' || line.startsWith(':')) {
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') {
      data.push(value);
    } else if (field === 'id') {
      message.id = value;
    } else if (field === 'event') {
      message.event = value;
    } else if (field === 'retry' && /^\d+$/.test(value)) {
      message.retry = Number(value);
    }
  }
  if (data.length > 0) {
    message.data = data.join('\n');
  }
  return message.data !== undefined || message.retry !== undefined ? message : null;
}
