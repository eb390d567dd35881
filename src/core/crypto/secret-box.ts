import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export interface SecretBoxOptions {
  /**
   * What the box protects (`webhook-secrets`, `personal-data`, ...). It is mixed into the key, so
   * one configured key yields a separate key per purpose and a value sealed for one purpose never
   * opens as another.
   */
  purpose: string;
  /** The configured key: any string of 32+ characters, hashed to the AES key. */
  keyMaterial: string;
  /** The setting that holds the key, named in errors (`DATA_ENCRYPTION_KEY`). */
  keyName: string;
}

const VERSION = 'v1';

/**
 * AES-256-GCM for values kept at rest. Stored form: `v1:<key id>:<iv>:<tag>:<ciphertext>`
 * (base64url parts, a fresh 96-bit IV per value); the key id tells a wrong key apart from a
 * damaged value, and the tag refuses any change to the ciphertext.
 */
export class SecretBox {
  private readonly key: Buffer;
  private readonly keyId: string;
  private readonly keyName: string;

  constructor(options: SecretBoxOptions) {
    this.key = createHash('sha256').update(`${options.purpose}:${options.keyMaterial}`).digest();
    this.keyId = createHash('sha256').update(this.key).digest('base64url').slice(0, 8);
    this.keyName = options.keyName;
  }

  /** Whether a stored value has the sealed form (values stored before encryption do not). */
  static isSealed(value: string): boolean {
    return value.startsWith(`${VERSION}:`) && value.split(':').length === 5;
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, this.keyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url')]
      .concat(ciphertext.toString('base64url'))
      .join(':');
  }

  open(sealed: string): string {
    const [version, keyId, iv, tag, ciphertext] = sealed.split(':');
    if (version !== VERSION || ciphertext === undefined) {
      throw new Error('Unreadable ciphertext.');
    }
    if (keyId !== this.keyId) {
      throw new Error(`The value was sealed under another ${this.keyName}.`);
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}
