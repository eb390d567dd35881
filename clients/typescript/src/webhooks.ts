import { WebhookVerificationError } from './errors.js';
import type { EventRecord } from './events.js';

export interface VerifyWebhookInput {
  /** The endpoint's signing secret, `whsec_<base64>`, returned once when the webhook was created. */
  secret: string;
  /** The request's headers: a plain object (any case) or a `Headers`. */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The raw request body, exactly as received. */
  body: string;
  /** How far `webhook-timestamp` may be from now, in seconds (replay protection). Default 300. */
  toleranceSeconds?: number;
}

const encoder = new TextEncoder();

/**
 * Checks a webhook's Standard Webhooks signature (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`) and its timestamp, and
 * resolves to the parsed event; rejects with WebhookVerificationError otherwise.
 */
export async function verifyWebhook(input: VerifyWebhookInput): Promise<EventRecord> {
  const id = header(input.headers, 'webhook-id');
  const timestamp = header(input.headers, 'webhook-timestamp');
  const signatures = header(input.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header.');
  }
  const seconds = Number(timestamp);
  const tolerance = input.toleranceSeconds ?? 300;
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - seconds) > tolerance) {
    throw new WebhookVerificationError('The webhook-timestamp is too old or too far in the future.');
  }
  const expected = await sign(input.secret, `${id}.${timestamp}.${input.body}`);
  const matches = signatures
    .split(' ')
    .map((part) => part.split(','))
    .some(
      ([version, signature]) => version === 'v1' && signature !== undefined && equal(signature, expected),
    );
  if (!matches) {
    throw new WebhookVerificationError('No webhook-signature matches the body with this secret.');
  }
  try {
    return JSON.parse(input.body) as EventRecord;
  } catch {
    throw new WebhookVerificationError('The body is not JSON.');
  }
}

/** The Standard Webhooks headers for a body (what the service sends; handy for forwarding and tests). */
export async function signWebhook(input: {
  secret: string;
  id: string;
  body: string;
  timestamp?: number;
}): Promise<Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string>> {
  const timestamp = String(input.timestamp ?? Math.floor(Date.now() / 1000));
  const signature = await sign(input.secret, `${input.id}.${timestamp}.${input.body}`);
  return { 'webhook-id': input.id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}

async function sign(secret: string, content: string): Promise<string> {
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    secretBytes(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, encoder.encode(content)));
  let binary = '';
  mac.forEach((b) => (binary += String.fromCharCode(b)));
  return btoa(binary);
}

function secretBytes(secret: string): Uint8Array {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  try {
    return Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  } catch {
    throw new WebhookVerificationError('The secret is not a whsec_<base64> signing secret.');
  }
}

function header(headers: VerifyWebhookInput['headers'], name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  const value = entry?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/** Compares in time independent of where the strings differ. */
function equal(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  }
  return diff === 0;
}
