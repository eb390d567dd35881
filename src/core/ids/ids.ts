import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** Public id prefixes. */
export const ID_PREFIXES = {
  investor: 'inv',
  apiKey: 'apk',
  order: 'ord',
  deposit: 'dep',
  withdrawal: 'wdr',
  walletTransaction: 'txn',
  document: 'doc',
  fundingSource: 'fs',
  webhookEndpoint: 'we',
  event: 'evt',
  request: 'req',
  tenant: 'ten',
  deadLetter: 'dl',
  deliveryAttempt: 'wda',
  position: 'pos',
  execution: 'exe',
  financialPlan: 'fp',
  goal: 'goal',
  aprTier: 'apr',
  interestPayout: 'ipay',
  webhookSink: 'whs',
  fxQuote: 'fxq',
  conversion: 'cnv',
  journal: 'jnl',
  corporateAction: 'ca',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

// Random bytes are drawn in blocks: one system call per 256 ids instead of one per id.
const POOL_SIZE = 16 * 256;
let pool = randomBytes(POOL_SIZE);
let offset = 0;

/** 128 random bits as 22 base64url characters, encoded straight from the pool (no slice object). */
function random16Base64url(): string {
  if (offset + 16 > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  const text = pool.toString('base64url', offset, offset + 16);
  offset += 16;
  return text;
}

/** `<prefix>_<128 random bits, base64url>`: 22 url-safe characters after the underscore. */
export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${random16Base64url()}`;
}

/** True when `value` looks like an id of this kind (cheap shape check before a lookup). */
export function isIdOf(kind: IdKind, value: string): boolean {
  return (
    value.startsWith(`${ID_PREFIXES[kind]}_`) &&
    value.length > ID_PREFIXES[kind].length + 1 &&
    value.length <= 64
  );
}

export function newUuid(): string {
  return randomUUID();
}

export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Namespace uuids as bytes, parsed once each. */
const namespaceBytes = new Map<string, Buffer>();
/**
 * Name-based ids already derived: the same few (a tenant's ledger accounts, an asset's id) are
 * asked for on every request, and each derivation is a SHA-1. Emptied when full, so it stays small.
 */
const derivedIds = new Map<string, string>();
const MAX_DERIVED_IDS = 10_000;

/**
 * Name-based uuid (RFC 4122 version 5): the same name under the same namespace gives the same id in
 * every process and database (asset ids, ledger account ids).
 */
export function uuidV5(name: string, namespace: string): string {
  const key = `${namespace}|${name}`;
  let id = derivedIds.get(key);
  if (id === undefined) {
    id = deriveUuidV5(name, namespace);
    if (derivedIds.size >= MAX_DERIVED_IDS) {
      derivedIds.clear();
    }
    derivedIds.set(key, id);
  }
  return id;
}

function deriveUuidV5(name: string, namespace: string): string {
  let space = namespaceBytes.get(namespace);
  if (!space) {
    space = Buffer.from(namespace.replace(/-/g, ''), 'hex');
    namespaceBytes.set(namespace, space);
  }
  const hash = createHash('sha1').update(space).update(name, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
