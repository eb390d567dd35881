/**
 * Stateless pseudo-random numbers: every draw is a hash of (asset key, stream, a, b), so any process
 * computes the same value for the same inputs without shared state or replaying a sequence. Only
 * 32-bit integer operations and IEEE arithmetic are used, which give the same results everywhere.
 */

export interface StreamKey {
  hi: number;
  lo: number;
}

/** Streams keep unrelated draws apart (a daily shock never reuses a bridge node's value). */
export const STREAM = {
  daily: 1,
  bridge: 2,
  gap: 3,
  volume: 4,
  size: 5,
} as const;

/** MurmurHash3 finaliser: a bijective 32-bit mix. */
function fmix32(input: number): number {
  let h = input;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a over the UTF-16 code units, with a given offset basis. */
function fnv1a(text: string, basis: number): number {
  let h = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

/** 64 bits of key from a seed text such as `<PRICE_SEED>:<asset id>`. */
export function streamKey(text: string): StreamKey {
  return { hi: fnv1a(text, 0x811c9dc5), lo: fnv1a(text, 0x2f1a3b5d) };
}

function hash(key: StreamKey, stream: number, a: number, b: number, draw: number): number {
  const h = fmix32(key.lo ^ Math.imul(stream + 1, 0x9e3779b1) ^ Math.imul(a | 0, 0xcc9e2d51));
  return fmix32(h ^ key.hi ^ Math.imul(b | 0, 0x1b873593) ^ Math.imul(draw + 1, 0x27d4eb2f));
}

/** Uniform in [0, 1). */
export function uniform(key: StreamKey, stream: number, a: number, b: number, draw = 0): number {
  return hash(key, stream, a, b, draw) / 4294967296;
}

const SQRT3 = Math.sqrt(3);
const HALF = 65536;

/**
 * Approximately standard normal: the Irwin-Hall sum of four 16-bit uniforms (two hashes), centred and
 * scaled to unit variance. Bounded at about +/-3.46, which suits a price simulation.
 */
export function standardNormal(key: StreamKey, stream: number, a: number, b: number): number {
  const first = hash(key, stream, a, b, 0);
  const second = hash(key, stream, a, b, 1);
  const sum = ((first >>> 16) + (first & 0xffff) + (second >>> 16) + (second & 0xffff) + 2) / HALF;
  return (sum - 2) * SQRT3;
}
