import type { Request, Response } from 'express';
import type { Principal } from 'src/core/auth/principal';
import type { RequestLogEntity } from 'src/modules/request-logs/request-log.entity';

/** A row as buffered: the arrival time in epoch milliseconds (what the batch insert sends). */
export type RequestLogRow = Omit<RequestLogEntity, 'created_at'> & { created_at: number };

/**
 * Query parameters whose values are kept: paging, filters over ids, enums, times and symbols.
 * Any other parameter (a name, an email, free text) keeps its name with the value redacted.
 */
const KEPT_QUERY_PARAMS = new Set([
  'limit',
  'offset',
  'starting_after',
  'ending_before',
  'created',
  'created_gte',
  'created_lt',
  'updated_since',
  'status',
  'method',
  'path',
  'event',
  'type',
  'symbol',
  'symbols',
  'asset_class',
  'exchange',
  'currency',
  'account_id',
  'investor_id',
  'endpoint',
  'page_token',
  'timeframe',
  'start',
  'end',
  'date',
]);

const MAX_QUERY_PARAMS = 50;
const MAX_VALUE_LENGTH = 200;

/** Parameter names with their value, or "[redacted]" when the parameter may carry personal data. */
export function loggableQuery(originalUrl: string): Record<string, string> | null {
  const q = originalUrl.indexOf('?');
  if (q === -1 || q === originalUrl.length - 1) {
    return null;
  }
  const out: Record<string, string> = {};
  let count = 0;
  for (const [name, value] of new URLSearchParams(originalUrl.slice(q + 1))) {
    if (++count > MAX_QUERY_PARAMS) {
      break;
    }
    const bracket = name.indexOf('[');
    const base = bracket === -1 ? name : name.slice(0, bracket);
    out[name.slice(0, MAX_VALUE_LENGTH)] = KEPT_QUERY_PARAMS.has(base)
      ? value.slice(0, MAX_VALUE_LENGTH)
      : '[redacted]';
  }
  return out;
}

/** What the error renderer leaves on the request for the request log: the body the client got. */
export interface RequestWithOutcome extends Request {
  id?: string;
  principal?: Principal;
  errorBody?: Record<string, unknown>;
}

function pathOf(req: Request): string {
  const url = req.originalUrl;
  const q = url.indexOf('?');
  return (q === -1 ? url : url.slice(0, q)).slice(0, 512);
}

/** The row for a finished request, or null when there is no tenant to show it to. */
export function requestLogRow(
  req: RequestWithOutcome,
  res: Response,
  startedAt: number,
  durationMs: number,
): RequestLogRow | null {
  const principal = req.principal;
  if (!principal || !req.id) {
    return null;
  }
  const error = res.statusCode >= 400 ? (req.errorBody ?? null) : null;
  const rawKey = req.headers['idempotency-key'];
  const idempotencyKey = typeof rawKey === 'string' && rawKey.length > 0 ? rawKey.slice(0, 255) : null;
  return {
    id: req.id,
    tenant_id: principal.tenantId,
    livemode: principal.livemode,
    api_key_id: principal.method === 'basic' ? principal.keyId : null,
    investor_id: principal.investorId,
    method: req.method,
    path: pathOf(req),
    query: loggableQuery(req.originalUrl),
    status: res.statusCode,
    duration_ms: Math.round(durationMs),
    error_code: error && typeof error.code === 'string' ? error.code : null,
    error,
    idempotency_key: idempotencyKey,
    idempotent_replayed: res.getHeader('Idempotent-Replayed') === 'true',
    legacy: (req as { legacyApi?: boolean }).legacyApi === true,
    created_at: startedAt,
  };
}
