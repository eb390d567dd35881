import { ServiceError } from 'src/core/errors/service-error';

/** Opaque bar cursor: where the next page starts, and the order it was issued for. */
export function encodePageToken(next: Date, sort: 'asc' | 'desc'): string {
  return Buffer.from(JSON.stringify({ t: next.getTime(), s: sort })).toString('base64url');
}

export function decodePageToken(token: string, sort: 'asc' | 'desc'): Date {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      t?: unknown;
      s?: unknown;
    };
    if (typeof parsed.t === 'number' && Number.isFinite(parsed.t) && parsed.s === sort) {
      return new Date(parsed.t);
    }
  } catch {
    // fall through: not one of ours
  }
  throw ServiceError.invalid('page_token', 'page_token is not a next_page_token of this query.');
}
