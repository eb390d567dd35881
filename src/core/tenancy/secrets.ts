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
