import { Foundation1763780000000 } from './1763780000000-foundation';

/**
 * Every migration, in order. Listed explicitly (not globbed) so the same list works from
 * ts-jest, ts-node and the compiled dist/ tree. Add each new migration class here.
 */
export const MIGRATIONS = [Foundation1763780000000];
