import { Injectable } from '@nestjs/common';
import { createHmac, randomBytes } from 'node:crypto';
import { AppConfig } from 'src/core/config/app-config.service';
import { SecretBox } from 'src/core/crypto/secret-box';
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
  return signWithKey(signingKey(secret), id, timestamp, body);
}

/** The HMAC key of a `whsec_` secret: its base64 part, decoded. */
export function signingKey(secret: string): Buffer {
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/** signPayload with the secret's key already decoded (delivery signs with the same few keys). */
export function signWithKey(key: Buffer, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** How long the secret before a rotation keeps signing beside the new one. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3600_000;

/** A box for webhook signing secrets (AES-256-GCM), keyed by WEBHOOK_SECRET_KEY or the sandbox key. */
export function webhookSecretBox(keyMaterial: string | undefined): SecretBox {
  return new SecretBox({
    purpose: 'webhook-secrets',
    keyMaterial: keyMaterial ?? SANDBOX_KEY_MATERIAL,
    keyName: 'WEBHOOK_SECRET_KEY',
  });
}

/**
 * Signing secrets are encrypted at rest (AES-256-GCM, `SecretBox`): delivery must be able to
 * sign, so a one-way hash would not do.
 */
@Injectable()
export class WebhookSecrets {
  private readonly box: SecretBox;

  constructor(config: AppConfig) {
    this.box = webhookSecretBox(config.get('WEBHOOK_SECRET_KEY'));
  }

  seal(plain: string): string {
    return this.box.seal(plain);
  }

  open(sealed: string): string {
    return this.box.open(sealed);
  }

  /** Opened secrets' signing keys, by ciphertext. */
  private readonly keys = new Map<string, Buffer>();

  /** The signing key of a sealed secret, remembered (delivery signs with the same few all the time). */
  private keyOf(sealed: string): Buffer {
    let key = this.keys.get(sealed);
    if (key === undefined) {
      key = signingKey(this.open(sealed));
      if (this.keys.size >= 1000) {
        this.keys.clear();
      }
      this.keys.set(sealed, key);
    }
    return key;
  }

  /** Keys that sign a delivery now: the current secret's, and the previous one's during its grace period. */
  signingKeys(
    endpoint: Pick<
      WebhookEndpointEntity,
      'secret_ciphertext' | 'previous_secret_ciphertext' | 'previous_secret_expires_at'
    >,
    nowMs = Date.now(),
  ): Buffer[] {
    const keys = [this.keyOf(endpoint.secret_ciphertext)];
    if (
      endpoint.previous_secret_ciphertext &&
      endpoint.previous_secret_expires_at &&
      endpoint.previous_secret_expires_at.getTime() > nowMs
    ) {
      keys.push(this.keyOf(endpoint.previous_secret_ciphertext));
    }
    return keys;
  }
}
