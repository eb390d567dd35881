import { EVENT_NAMES, WEBHOOK_TEST_EVENT } from 'src/core/events/event-types';

/**
 * Dotted prefixes a wildcard may name: every domain (`order`, `transfer`, ...) and sub-domain
 * (`transfer.deposit`, `kyc.verification`) of a known event name.
 */
const WILDCARD_PREFIXES: ReadonlySet<string> = new Set(
  EVENT_NAMES.flatMap((name) => {
    const parts = name.split('.');
    return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('.'));
  }),
);

const KNOWN_NAMES: ReadonlySet<string> = new Set(EVENT_NAMES);

/**
 * A subscription or filter pattern: an event name from the event-type list, a wildcard over a
 * domain or sub-domain (`order.*`, `transfer.*`, `transfer.deposit.*`), or `*` for all.
 */
export function isEventPattern(pattern: string): boolean {
  if (pattern === '*' || KNOWN_NAMES.has(pattern)) {
    return true;
  }
  return pattern.endsWith('.*') && WILDCARD_PREFIXES.has(pattern.slice(0, -2));
}

/** Same as isEventPattern, plus the test event name (for filtering the event list). */
export function isEventFilter(pattern: string): boolean {
  return pattern === WEBHOOK_TEST_EVENT || isEventPattern(pattern);
}

export function patternMatches(pattern: string, eventName: string): boolean {
  if (pattern === '*') {
    return true;
  }
  if (pattern.endsWith('.*')) {
    return eventName.startsWith(pattern.slice(0, -1));
  }
  return pattern === eventName;
}

export function anyPatternMatches(patterns: readonly string[], eventName: string): boolean {
  return patterns.some((p) => patternMatches(p, eventName));
}

/** The wildcards partners may use, for messages and docs. */
export const WILDCARD_EXAMPLES = ['order.*', 'transfer.*', 'account.*', 'document.*', 'kyc.*', '*'];
