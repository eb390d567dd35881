/** Credentials: an API key pair (HTTP Basic) or a bearer token (a JWT of the partner's issuer). */
export type Credentials =
  { publicKey: string; secret: string; token?: never } | { token: string; publicKey?: never; secret?: never };

export interface RetryOptions {
  /** Retries after a 429, a 503 or (idempotent calls only) a network error. Default 3. */
  maxRetries?: number;
  /** A Retry-After longer than this is not waited for: the response is returned. Default 60 000 ms. */
  maxRetryDelayMs?: number;
}

export type ClientConfig = Credentials &
  RetryOptions & {
    /** The service's URL, e.g. `https://sandbox.example.com` (paths start with `/v1`). */
    baseUrl: string;
    /** A fetch to use instead of the global one. */
    fetch?: (request: Request) => Promise<Response>;
  };

/** Methods whose repetition has no further effect; a POST joins them through its Idempotency-Key. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'POST']);

export function authorization(credentials: Credentials): string {
  if (credentials.token !== undefined) {
    return `Bearer ${credentials.token}`;
  }
  return `Basic ${toBase64(`${credentials.publicKey}:${credentials.secret}`)}`;
}

function toBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  bytes.forEach((b) => (binary += String.fromCharCode(b)));
  return btoa(binary);
}

export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/** Seconds or an HTTP date in Retry-After, as milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  if (value === null) {
    return undefined;
  }
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) {
    return seconds * 1000;
  }
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** 0.5 s, 1 s, 2 s, ... with jitter, at most 8 s. */
export function backoffMs(attempt: number): number {
  const base = Math.min(8_000, 500 * 2 ** attempt);
  return base / 2 + Math.random() * (base / 2);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * The fetch every call goes through: sets the Authorization header, gives each POST an
 * Idempotency-Key (unless one is given), and retries 429 and 503 answers after their Retry-After
 * (a retried POST keeps its key, so it never acts twice) and network errors of idempotent calls.
 */
export function serviceFetch(config: ClientConfig): (request: Request) => Promise<Response> {
  const send = config.fetch ?? ((request: Request) => globalThis.fetch(request));
  const maxRetries = config.maxRetries ?? 3;
  const maxDelay = config.maxRetryDelayMs ?? 60_000;
  const auth = authorization(config);
  return async (request: Request) => {
    request.headers.set('Authorization', auth);
    if (request.method === 'POST' && !request.headers.has('Idempotency-Key')) {
      request.headers.set('Idempotency-Key', newIdempotencyKey());
    }
    for (let attempt = 0; ; attempt += 1) {
      const last = attempt >= maxRetries;
      let response: Response;
      try {
        response = await send(last ? request : request.clone());
      } catch (err) {
        if (last || !IDEMPOTENT.has(request.method) || request.signal.aborted) {
          throw err;
        }
        await sleep(backoffMs(attempt), request.signal);
        continue;
      }
      if (last || (response.status !== 429 && response.status !== 503)) {
        return response;
      }
      const delay = retryAfterMs(response) ?? backoffMs(attempt);
      if (delay > maxDelay) {
        return response;
      }
      await response.body?.cancel().catch(() => undefined);
      await sleep(delay, request.signal);
    }
  };
}
