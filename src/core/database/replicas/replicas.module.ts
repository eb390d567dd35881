import { Global, Module, OnModuleInit } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
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
  providers: [ReplicaSet, WriteMarks, { provide: APP_INTERCEPTOR, useClass: ReplicaReadsInterceptor }],
  exports: [ReplicaSet],
})
export class ReplicasModule implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly primary: DataSource,
    private readonly replicas: ReplicaSet,
  ) {}

  onModuleInit(): void {
    if (this.replicas.configured) {
      routeReadsToReplicas(this.primary, this.replicas);
    }
  }
}
