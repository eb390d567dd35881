import { Global, Module, OnModuleInit } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
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
  providers: [
    ReplicaSet,
    WriteMarks,
    ChangeMarks,
    { provide: APP_INTERCEPTOR, useClass: ReplicaReadsInterceptor },
  ],
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
