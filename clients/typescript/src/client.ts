import createFetchClient, { type Client } from 'openapi-fetch';
import { type EventRecord, type StreamOptions, streamEvents } from './events.js';
import type { paths } from './generated/openapi.js';
import { type GetPath, type ListItem, paginate, type PaginateOptions } from './paginate.js';
import { type ClientConfig, serviceFetch } from './transport.js';

export interface InvestmentServiceClient extends Client<paths> {
  /** Every item of a list route (cursor, offset or page-token paging), as an async iterable. */
  paginate<P extends GetPath>(path: P, options?: PaginateOptions<P>): AsyncIterable<ListItem<P>>;
  events: {
    /** GET /v1/events/stream as an async iterable that resumes by itself after a dropped connection. */
    stream(options?: StreamOptions): AsyncIterable<EventRecord>;
  };
}

/**
 * A client over every path of the service's OpenAPI document: `client.GET('/v1/investors/{investor_id}',
 * { params: { path: { investor_id } } })` resolves to `{ data, error, response }`, typed from the
 * document; `error` is the SVC envelope (or the legacy body) of a failed call. Every POST carries an
 * Idempotency-Key (a new one unless given in `headers`); 429 and 503 answers are retried after their
 * Retry-After, network errors of idempotent calls with back-off.
 */
export function createClient(config: ClientConfig): InvestmentServiceClient {
  const base = createFetchClient<paths>({
    baseUrl: config.baseUrl.replace(/\/$/, ''),
    fetch: serviceFetch(config),
  });
  return Object.assign(base, {
    paginate: <P extends GetPath>(path: P, options?: PaginateOptions<P>) => paginate(base, path, options),
    events: { stream: (options?: StreamOptions) => streamEvents(config, options) },
  });
}
