export { BatchedTokenBuckets } from 'src/core/rate-limit/token-buckets';

/** The per-API-key token buckets of this process. */
export const API_KEY_BUCKETS = Symbol('API_KEY_BUCKETS');
