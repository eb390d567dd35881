/**
 * The signed-in key pair lives in sessionStorage only (gone when the tab closes or on sign out):
 * never in the URL, localStorage, a cookie or a log line.
 */
const STORAGE_KEY = 'investment-dashboard.key-pair';

export interface KeyPair {
  publicKey: string;
  secret: string;
}

export function loadKeyPair(): KeyPair | null {
  const raw = sessionStorage.getItem(STORAGE_KEY);
  if (!raw) {
    return null;
  }
  try {
    const parsed = JSON.parse(raw) as KeyPair;
    return typeof parsed.publicKey === 'string' && typeof parsed.secret === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

export function saveKeyPair(pair: KeyPair): void {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(pair));
}

export function forgetKeyPair(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}

export function isTestKey(pair: KeyPair): boolean {
  return pair.publicKey.startsWith('pk_test_');
}

export interface ApiError {
  type?: string;
  code?: string;
  message?: string;
  param?: string;
  doc_url?: string;
  request_log_url?: string;
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: ApiError,
    readonly requestId: string | null,
  ) {
    super(error.message ?? `HTTP ${status}`);
  }
}

export interface List<T> {
  object: 'list';
  has_more: boolean;
  data: T[];
}

/** Calls the API with the signed-in key pair (HTTP Basic); failures throw ApiFailure. */
export async function api<T>(pair: KeyPair, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {
    authorization: `Basic ${btoa(`${pair.publicKey}:${pair.secret}`)}`,
  };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'omit',
    cache: 'no-store',
    referrerPolicy: 'no-referrer',
  });
  const text = await res.text();
  const json = text ? (JSON.parse(text) as unknown) : null;
  if (!res.ok) {
    const error = (json as { error?: ApiError } | null)?.error ?? { message: `HTTP ${res.status}` };
    throw new ApiFailure(res.status, error, res.headers.get('request-id'));
  }
  return json as T;
}

export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== '') {
      q.set(k, String(v));
    }
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

export function when(unixSeconds: number | null | undefined): string {
  return unixSeconds ? new Date(unixSeconds * 1000).toISOString().replace('T', ' ').slice(0, 19) : '';
}

/**
 * Downloads a file the API serves (HTTP Basic, so not a plain link): fetched with the key pair,
 * handed to the browser as a blob under `fileName`.
 */
export async function download(pair: KeyPair, path: string, fileName: string): Promise<void> {
  const res = await fetch(path, {
    headers: { authorization: `Basic ${btoa(`${pair.publicKey}:${pair.secret}`)}` },
    credentials: 'omit',
    cache: 'no-store',
    referrerPolicy: 'no-referrer',
  });
  if (!res.ok) {
    const json = (await res.json().catch(() => null)) as { error?: ApiError } | null;
    throw new ApiFailure(
      res.status,
      json?.error ?? { message: `HTTP ${res.status}` },
      res.headers.get('request-id'),
    );
  }
  const url = URL.createObjectURL(await res.blob());
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
