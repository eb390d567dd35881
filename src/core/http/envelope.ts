/** Envelope keys every envelope-style resource carries (spec, Resource envelope). */
export interface ResourceEnvelope {
  id?: string;
  object: string;
  created?: number | null;
  livemode: boolean;
  metadata?: Record<string, string>;
}

export interface ListEnvelope<T> {
  object: 'list';
  url: string;
  has_more: boolean;
  data: T[];
}

export function unixSeconds(date: Date | null | undefined): number | null {
  return date ? Math.floor(date.getTime() / 1000) : null;
}

/** Wraps domain fields in the resource envelope, envelope keys first. */
export function toResource<T extends object>(
  object: string,
  base: {
    id?: string;
    created_at?: Date | null;
    livemode: boolean;
    metadata?: Record<string, string> | null;
  },
  fields: T,
): ResourceEnvelope & T {
  return {
    ...(base.id !== undefined ? { id: base.id } : {}),
    object,
    ...(base.created_at !== undefined ? { created: unixSeconds(base.created_at) } : {}),
    livemode: base.livemode,
    ...(base.metadata !== undefined ? { metadata: base.metadata ?? {} } : {}),
    ...fields,
  };
}

export function toList<T>(url: string, data: T[], hasMore: boolean): ListEnvelope<T> {
  return { object: 'list', url, has_more: hasMore, data };
}

/** The path that produced a list, without its query string (spec, List envelope `url`). */
export function listUrl(req: { originalUrl: string }): string {
  const q = req.originalUrl.indexOf('?');
  return q === -1 ? req.originalUrl : req.originalUrl.slice(0, q);
}
