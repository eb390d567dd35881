/**
 * Changes of the asset catalogue that in-memory copies (asset search results, test-mode price
 * overrides) must drop. Other processes learn of a change by PostgreSQL notification (migration
 * 1763965000000: triggers on the catalogue tables); a change this process commits is also announced
 * here at once, so its own next request never waits for the notification to come back.
 */
export type CatalogueChange =
  /** Assets, bond terms or search terms changed. */
  | { kind: 'catalogue' }
  /** A tenant's test-mode price overrides changed; tenantId null: any tenant's. */
  | { kind: 'overrides'; tenantId: string | null };

export const CATALOGUE_CHANNEL = 'asset_catalogue';
export const OVERRIDES_CHANNEL = 'asset_price_overrides';

type Listener = (change: CatalogueChange) => void;

const localListeners = new Set<Listener>();

/** Announces a change committed by this process to this process's copies. Call after the commit. */
export function announceCatalogueChange(change: CatalogueChange): void {
  localListeners.forEach((listener) => listener(change));
}

/** Follows the changes this process announces; returns the function that stops following. */
export function followLocalCatalogueChanges(listener: Listener): () => void {
  localListeners.add(listener);
  return () => localListeners.delete(listener);
}

/** The change a notification announces, or null for a channel that is not ours. */
export function changeOfNotification(channel: string, payload: string | undefined): CatalogueChange | null {
  if (channel === CATALOGUE_CHANNEL) {
    return { kind: 'catalogue' };
  }
  if (channel === OVERRIDES_CHANNEL) {
    return { kind: 'overrides', tenantId: payload ? payload : null };
  }
  return null;
}
