import type { components } from './generated/openapi.js';

/** The SVC error envelope every failed call answers (`{ error: { type, code, message, param?, ... } }`). */
export type ErrorEnvelope = components['schemas']['ErrorEnvelopeDto'];
/** The legacy body of an add-on product the tenant does not have (`{ status: 'error', code, message }`). */
export type LegacyErrorBody = components['schemas']['LegacyErrorDto'];

/**
 * A failed call, thrown by the helpers that cannot hand back `{ data, error }` (paginate,
 * events.stream). `body` is the SVC envelope (or the legacy body); `code` is `SVC-<status>-<seq>`
 * (or `PRODUCT_NOT_ENABLED`).
 */
export class InvestmentServiceError extends Error {
  readonly status: number;
  readonly code: string;
  readonly type: string | undefined;
  readonly param: string | undefined;
  readonly requestId: string | undefined;
  readonly body: ErrorEnvelope | LegacyErrorBody | undefined;

  constructor(status: number, body: unknown, requestId?: string) {
    const envelope = isEnvelope(body) ? body : undefined;
    const legacy = isLegacy(body) ? body : undefined;
    super(envelope?.error.message ?? legacy?.message ?? `The service answered ${status}.`);
    this.name = 'InvestmentServiceError';
    this.status = status;
    this.code = envelope?.error.code ?? legacy?.code ?? `HTTP-${status}`;
    this.type = envelope?.error.type;
    this.param = envelope?.error.param;
    this.requestId = requestId;
    this.body = envelope ?? legacy;
  }

  /** Reads a failed response's body (JSON or not) into an error. */
  static async fromResponse(response: Response): Promise<InvestmentServiceError> {
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return new InvestmentServiceError(response.status, body, response.headers.get('request-id') ?? undefined);
  }
}

/** A webhook whose signature or timestamp does not check out. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export function isEnvelope(body: unknown): body is ErrorEnvelope {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error === 'object' && error !== null && typeof error.code === 'string';
}

function isLegacy(body: unknown): body is LegacyErrorBody {
  const b = body as { status?: unknown; code?: unknown } | null;
  return typeof b === 'object' && b !== null && b.status === 'error' && typeof b.code === 'string';
}
