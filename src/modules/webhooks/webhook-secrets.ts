import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { AppConfig } from 'src/core/config/app-config.service';
import type { WebhookEndpointEntity } from 'src/modules/webhooks/entities/webhook-endpoint.entity';

const SECRET_PREFIX = 'whsec_';
/** Used only when WEBHOOK_SECRET_KEY is unset, which configuration allows outside production. */
const SANDBOX_KEY_MATERIAL = 'investment-service sandbox webhook secret key (not for production)';

/** A new signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * Standard Webhooks signature of one message: `v1,<base64 HMAC-SHA256>` over
 * `<id>.<timestamp>.<body>`, keyed with the base64-decoded part of the secret.
 */
export function signPayload(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * Encrypts signing secrets at rest with AES-256-GCM. Stored form:
 * `v1:<key id>:<iv>:<tag>:<ciphertext>` (base64url parts); the key id tells a wrong key apart from
 * a damaged value.
 */
export class SecretBox {
  private readonly key: Buffer;
  private readonly keyId: string;

  constructor(keyMaterial: string | undefined) {
    this.key = createHash('sha256')
      .update(`webhook-secrets:${keyMaterial ?? SANDBOX_KEY_MATERIAL}`)
      .digest();
    this.keyId = createHash('sha256').update(this.key).digest('base64url').slice(0, 8);
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', this.keyId, iv, cipher.getAuthTag(), ciphertext]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join(':');
  }

  open(sealed: string): string {
    const [version, keyId, iv, tag, ciphertext] = sealed.split(':');
    if (version !== 'v1' || !ciphertext) {
      throw new Error('Unreadable webhook secret ciphertext.');
    }
    if (keyId !== this.keyId) {
      throw new Error('Webhook secret was sealed under another WEBHOOK_SECRET_KEY.');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

/** How long the secret before a rotation keeps signing beside the new one. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3600_000;

/** The process's SecretBox, keyed by WEBHOOK_SECRET_KEY. */
@Injectable()
export class WebhookSecrets extends SecretBox {
  constructor(config: AppConfig) {
    super(config.get('WEBHOOK_SECRET_KEY'));
  }

  /** Secrets that sign a delivery now: the current one, and the previous one during its grace period. */
  private readonly opened = new Map<string, string>();

  /** Like open, remembering recent results (delivery signs with the same few secrets all the time). */
  openCached(sealed: string): string {
    let plain = this.opened.get(sealed);
    if (plain === undefined) {
      plain = this.open(sealed);
      if (this.opened.size >= 1000) {
        this.opened.clear();
      }
      this.opened.set(sealed, plain);
    }
    return plain;
  }

  signingSecrets(
    endpoint: Pick<
      WebhookEndpointEntity,
      'secret_ciphertext' | 'previous_secret_ciphertext' | 'previous_secret_expires_at'
    >,
    now = new Date(),
  ): string[] {
    const secrets = [this.openCached(endpoint.secret_ciphertext)];
    if (
      endpoint.previous_secret_ciphertext &&
      endpoint.previous_secret_expires_at &&
      endpoint.previous_secret_expires_at > now
    ) {
      secrets.push(this.openCached(endpoint.previous_secret_ciphertext));
    }
    return secrets;
  }
}
