import { AsyncLocalStorage } from 'node:async_hooks';
import { SetMetadata } from '@nestjs/common';

/** Metadata key of @ReadsMayLag(). */
export const READS_MAY_LAG = 'reads-may-lag';

/**
 * On a GET route: its reads outside a transaction may be served by a read replica at most
 * DATABASE_REPLICA_MAX_LAG_MS behind, never behind the caller's own last write.
 */
export const ReadsMayLag = (): MethodDecorator & ClassDecorator => SetMetadata(READS_MAY_LAG, true);

/** What the reads of the work in progress may use. */
export interface ReadContext {
  /** The WAL position a replica must have replayed (the caller's last write); 0n: none known. */
  minLsn: bigint;
  /** Whose data the reads are (their tenant's change marks apply), when known. */
  tenant?: { tenantId: string; livemode: boolean };
  /** Cleared when the work ends, so timers it started do not read from replicas afterwards. */
  open: boolean;
}

const storage = new AsyncLocalStorage<ReadContext>();

/**
 * Runs `work` with its plain reads allowed on replicas caught up to `minLsn` (the caller's last
 * write; 0n: none) and past the tenant's change marks. When it ends the permission ends with it,
 * so timers it started read from the primary.
 */
export async function withReplicaReads<T>(
  minLsn: bigint,
  tenant: ReadContext['tenant'],
  work: () => Promise<T>,
): Promise<T> {
  const context: ReadContext = { minLsn, tenant, open: true };
  try {
    return await storage.run(context, work);
  } finally {
    context.open = false;
  }
}

/** The replica reads allowed here, or undefined (everything on the primary). */
export function currentReadContext(): ReadContext | undefined {
  const context = storage.getStore();
  return context?.open ? context : undefined;
}

/**
 * Background work's reads that may lag (a statement built after its month ended): plain reads
 * outside a transaction go to a replica within the bound and caught up since the tenant's last
 * change mark; its transactions and writes, and everything after a write, stay on the primary.
 */
export function readsMayLagFor<T>(
  tenant: NonNullable<ReadContext['tenant']>,
  work: () => Promise<T>,
): Promise<T> {
  return withReplicaReads(0n, tenant, work);
}
