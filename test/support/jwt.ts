import { createPrivateKey, createPublicKey, createSign, generateKeyPairSync, KeyObject } from 'node:crypto';

let keys: { privateKey: KeyObject; publicPem: string } | undefined;

/**
 * Remote mode: the private key whose public half the deployed sandbox trusts (its JWT_PUBLIC_KEY),
 * when QA has one. Without it a sandbox accepts none of the suite's tokens.
 */
export const remoteJwtKey = process.env.E2E_BASE_URL ? process.env.E2E_JWT_PRIVATE_KEY : undefined;

/**
 * One RSA key pair per test file; env.ts hands its public half to the app as JWT_PUBLIC_KEY.
 * Remotely, the key of E2E_JWT_PRIVATE_KEY when set.
 */
export function testJwtKeys(): { privateKey: KeyObject; publicPem: string } {
  if (!keys && remoteJwtKey) {
    const privateKey = createPrivateKey(remoteJwtKey);
    keys = {
      privateKey,
      publicPem: createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString(),
    };
  }
  if (!keys) {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    keys = {
      privateKey: pair.privateKey,
      publicPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    };
  }
  return keys;
}

/** Expected iss / aud of the app under test; remotely the sandbox's JWT_ISSUER / JWT_AUDIENCE when given. */
export const TEST_JWT_ISSUER = (remoteJwtKey && process.env.E2E_JWT_ISSUER) || 'https://identity.test.local/';
export const TEST_JWT_AUDIENCE = (remoteJwtKey && process.env.E2E_JWT_AUDIENCE) || 'investment-api-test';

/** Signs an RS256 JWT with the test key (or another key, to test refusal). */
export function signJwt(
  claims: Record<string, unknown>,
  options: { privateKey?: KeyObject; expiresInSeconds?: number } = {},
): string {
  const now = Math.floor(Date.now() / 1000);
  const header = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT' })).toString('base64url');
  const payload = Buffer.from(
    JSON.stringify({
      iss: TEST_JWT_ISSUER,
      aud: TEST_JWT_AUDIENCE,
      iat: now,
      exp: now + (options.expiresInSeconds ?? 300),
      ...claims,
    }),
  ).toString('base64url');
  const signature = createSign('RSA-SHA256')
    .update(`${header}.${payload}`)
    .sign(options.privateKey ?? testJwtKeys().privateKey)
    .toString('base64url');
  return `${header}.${payload}.${signature}`;
}
