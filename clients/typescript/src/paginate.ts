import type { Client, MaybeOptionalInit } from 'openapi-fetch';
import { InvestmentServiceError } from './errors.js';
import type { paths } from './generated/openapi.js';

/** Paths with a GET operation. */
export type GetPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: unknown } } ? P : never;
}[keyof paths];

type OkBody<P extends GetPath> = paths[P]['get'] extends {
  responses: { 200: { content: { 'application/json': infer B } } };
}
  ? B
  : never;

/** The item of a list route: an array's element, or the element of `data` (or of the one array field). */
export type ListItem<P extends GetPath> =
  OkBody<P> extends ReadonlyArray<infer I>
    ? I
    : OkBody<P> extends { data: ReadonlyArray<infer I> }
      ? I
      : OkBody<P> extends { bars: ReadonlyArray<infer I> }
        ? I
        : unknown;

export type PaginateOptions<P extends GetPath> = MaybeOptionalInit<paths[P], 'get'>;

type Query = Record<string, unknown>;
type Page = { items: unknown[]; next: Query | null };

/**
 * Every item of a list route, page after page, whatever its style: a list envelope (`has_more`,
 * `starting_after` = the last id), a page token (`next_page_token` → `page_token`) or an offset
 * (an array answer; `offset` moves by the page's length until a short page).
 */
export async function* paginate<P extends GetPath>(
  client: Client<paths>,
  path: P,
  options?: PaginateOptions<P>,
): AsyncGenerator<ListItem<P>, void, undefined> {
  const init = (options ?? {}) as { params?: { query?: Query; path?: unknown } } & Record<string, unknown>;
  let query: Query = { ...(init.params?.query ?? {}) };
  for (;;) {
    const get = client.GET as unknown as (
      p: string,
      o: unknown,
    ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    const { data, error, response } = await get(path, { ...init, params: { ...init.params, query } });
    if (error !== undefined || !response.ok) {
      throw new InvestmentServiceError(
        response.status,
        error,
        response.headers.get('request-id') ?? undefined,
      );
    }
    const page = readPage(data, query);
    for (const item of page.items) {
      yield item as ListItem<P>;
    }
    if (!page.next || page.items.length === 0) {
      return;
    }
    query = page.next;
  }
}

function readPage(body: unknown, query: Query): Page {
  if (Array.isArray(body)) {
    // Without a limit the server's default is not known here: go on until an empty page.
    const short = query.limit !== undefined && body.length < Number(query.limit);
    const offset = Number(query.offset ?? 0);
    return { items: body, next: short ? null : { ...query, offset: offset + body.length } };
  }
  const record = body as Record<string, unknown>;
  const items = (Array.isArray(record.data) ? record.data : Object.values(record).find(Array.isArray)) ?? [];
  if ('next_page_token' in record) {
    const token = record.next_page_token;
    return {
      items,
      next: typeof token === 'string' && token !== '' ? { ...query, page_token: token } : null,
    };
  }
  if (record.has_more === true) {
    const last = items[items.length - 1] as { id?: unknown } | undefined;
    return { items, next: typeof last?.id === 'string' ? { ...query, starting_after: last.id } : null };
  }
  return { items, next: null };
}
