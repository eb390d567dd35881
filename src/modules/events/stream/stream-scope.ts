import { patternMatches } from 'src/core/events/event-patterns';
import type { EventNotice } from 'src/core/events/event-notice';

/** What one stream may see: its key's tenant and mode, its investor (investor keys), its `types`. */
export interface StreamScope {
  tenantId: string;
  livemode: boolean;
  investorId: string | null;
  /** Names and wildcards; null for every event. */
  types: string[] | null;
}

/** Where a stream stands in the outbox order (created_at, then id). */
export interface StreamCursor {
  createdAt: Date;
  id: string;
}

/** Whether a committed event belongs on a stream of this scope (data needed for investor scopes). */
export function noticeMatches(scope: StreamScope, notice: EventNotice): boolean {
  if (notice.tenant_id !== scope.tenantId || notice.livemode !== scope.livemode || notice.endpoint_id) {
    return false;
  }
  if (scope.types && !scope.types.some((p) => patternMatches(p, notice.event))) {
    return false;
  }
  return scope.investorId === null || notice.data?.investor_id === scope.investorId;
}
