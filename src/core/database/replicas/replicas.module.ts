import { Global, INestApplication, Module, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ChangeMarks } from 'src/core/database/replicas/change-marks';
import { EventNotifications } from 'src/core/events/event-notifications';
import { ReplicaReadsInterceptor } from 'src/core/database/replicas/replica-reads.interceptor';
import { routeReadsToReplicas } from 'src/core/database/replicas/replica-routing';
import { ReplicaSet } from 'src/core/database/replicas/replica-set';
import { WriteMarks } from 'src/core/database/replicas/write-marks';

/**
 * Read replicas (DATABASE_REPLICA_URLS): reads that may lag go to a replica no more than
 * DATABASE_REPLICA_MAX_LAG_MS behind and caught up with the caller's own writes; everything else,
 * and everything when no replica qualifies, stays on the primary. Without replicas configured
 * nothing here does any work.
 */
@Global()
@Module({
  providers: [ReplicaSet, WriteMarks, ChangeMarks, ReplicaReadsInterceptor],
  exports: [ReplicaSet, ChangeMarks],
})
export class ReplicasModule implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly primary: DataSource,
    private readonly replicas: ReplicaSet,
    private readonly marks: ChangeMarks,
    private readonly events: EventNotifications,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.replicas.configured) {
      return;
    }
    routeReadsToReplicas(this.primary, this.replicas, this.marks);
    this.marks.followNotifications(() => this.events.listening);
    // Every committed event marks its tenant; while notifications may have been missed, everything.
    await this.events.subscribe({
      onEvent: (notice) => this.marks.markTenant(notice.tenant_id, notice.livemode),
      onResync: () => this.marks.markEverything(),
    });
  }
}

/**
 * Puts ReplicaReadsInterceptor on every route, only when replicas are configured: a route with
 * no interceptor skips Nest's interceptor chain (its Observables and two AsyncResource bindings
 * per request), which every request of a deployment without replicas would otherwise pay for.
 * Called by configureApp, before the routes are registered.
 */
export function useReplicaReads(app: INestApplication): void {
  if (app.get(ReplicaSet).configured) {
    app.useGlobalInterceptors(app.get(ReplicaReadsInterceptor));
  }
}
