import * as crypto from 'node:crypto';
import { createHash, timingSafeEqual } from 'node:crypto';

/** Secrets are 256-bit random, so one SHA-256 suffices (no slow KDF per request). */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

const DUMMY_HASH = hashSecret('dummy-secret-for-constant-time-comparison');

/**
 * Constant-time comparison of a presented secret against a stored hash. With no stored hash
 * (unknown key) it still hashes and compares, so every failure costs about the same time.
 */
export function secretMatches(presented: string, storedHash: string | undefined): boolean {
  const presentedHash = Buffer.from(hashSecret(presented), 'hex');
  const expected = Buffer.from(storedHash ?? DUMMY_HASH, 'hex');
  const equal = expected.length === presentedHash.length && timingSafeEqual(presentedHash, expected);
  return equal && storedHash !== undefined;
}

/** SHA-256 of a secret as bytes; the one-shot crypto.hash (Node ≥ 20.12) skips the Hash object. */
const sha256: (secret: string) => Buffer =
  typeof crypto.hash === 'function'
    ? (secret) => crypto.hash('sha256', secret, 'buffer')
    : (secret) => createHash('sha256').update(secret).digest();

const DUMMY_DIGEST = Buffer.from(DUMMY_HASH, 'hex');

/**
 * secretMatches against a stored hash already decoded to bytes (the credential cache keeps it
 * so): the same constant-time comparison, without hex encoding and decoding per request.
 */
export function secretDigestMatches(presented: string, storedDigest: Buffer | undefined): boolean {
  const presentedDigest = sha256(presented);
  const expected = storedDigest ?? DUMMY_DIGEST;
  const equal = expected.length === presentedDigest.length && timingSafeEqual(presentedDigest, expected);
  return equal && storedDigest !== undefined;
}
