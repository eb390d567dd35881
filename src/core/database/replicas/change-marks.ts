import { Injectable } from '@nestjs/common';
import { AppConfig } from 'src/core/config/app-config.service';

/** Tenants' marks kept before the ones no replica read can need any more are dropped. */
const PRUNE_ABOVE = 10_000;

/**
 * When this process learned of committed changes that replica reads must see, though no caller
 * of theirs wrote them: a tenant's event (a fill, a settlement, a corporate action applied by a
 * job, in any process), a change of the asset catalogue or of price overrides, or a moment when
 * such notifications may have been missed (everything). A replica serves such a read only if its
 * last catch-up began after the mark: the primary's position it then sampled holds the commit.
 *
 * A mark older than DATABASE_REPLICA_MAX_LAG_MS asks nothing of a replica in use (each in use
 * caught up since), so marks live that long; a partner who had the webhook of a change finds it
 * in the lists, which a replica only behind by the bound would not promise.
 */
@Injectable()
export class ChangeMarks {
  private readonly tenants = new Map<string, number>();
  private everything = 0;
  private readonly maxLagMs: number;
  /** Whether events' notifications are flowing now; while they are not, no mark can be trusted. */
  private notificationsFlow: () => boolean = () => false;

  constructor(config: AppConfig) {
    this.maxLagMs = config.get('DATABASE_REPLICA_MAX_LAG_MS');
  }

  /** Follows whether the events' notifications (which set the tenants' marks) are flowing. */
  followNotifications(flowing: () => boolean): void {
    this.notificationsFlow = flowing;
  }

  /** A change of the tenant's data in this mode committed before now. */
  markTenant(tenantId: string, livemode: boolean, at = Date.now()): void {
    if (this.tenants.size >= PRUNE_ABOVE) {
      this.prune(at);
    }
    this.tenants.set(tenantKey(tenantId, livemode), at);
  }

  /** A change every tenant's reads must see (the catalogue, or notifications that may be missed). */
  markEverything(at = Date.now()): void {
    this.everything = at;
  }

  /** The time after which a replica serving this tenant's reads (or reads of no tenant) must have begun catching up. */
  requiredFor(tenant: { tenantId: string; livemode: boolean } | undefined): number {
    if (!this.notificationsFlow()) {
      return Number.POSITIVE_INFINITY; // changes may go unmarked: the primary answers
    }
    const mark = tenant ? this.tenants.get(tenantKey(tenant.tenantId, tenant.livemode)) : undefined;
    return Math.max(this.everything, mark ?? 0);
  }

  private prune(now: number): void {
    for (const [key, at] of this.tenants) {
      if (now - at > this.maxLagMs) {
        this.tenants.delete(key);
      }
    }
  }
}

function tenantKey(tenantId: string, livemode: boolean): string {
  return `${tenantId}:${livemode ? 'live' : 'test'}`;
}
