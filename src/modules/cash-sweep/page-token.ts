import { ServiceError } from 'src/core/errors/service-error';
import type { InterestCursor, InterestFilter } from 'src/modules/cash-sweep/interest.repository';

const filterKey = (f: InterestFilter) => `${f.date ?? ''}|${f.after ?? ''}|${f.before ?? ''}`;

/** Opaque cursor of the interest history: the last entry given, and the filters it was issued for. */
export function encodeInterestToken(last: InterestCursor, filter: InterestFilter): string {
  return Buffer.from(JSON.stringify({ d: last.date, c: last.currency, f: filterKey(filter) })).toString(
    'base64url',
  );
}

export function decodeInterestToken(token: string, filter: InterestFilter): InterestCursor {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (
      typeof parsed.d === 'string' &&
      /^\d{4}-\d{2}-\d{2}$/.test(parsed.d) &&
      typeof parsed.c === 'string' &&
      /^[A-Z]{3}$/.test(parsed.c) &&
      parsed.f === filterKey(filter)
    ) {
      return { date: parsed.d, currency: parsed.c };
    }
  } catch {
    // fall through: not one of ours
  }
  throw ServiceError.invalid(
    'page_token',
    'page_token must be the next_page_token of a previous page with the same date, after and before.',
  );
}
