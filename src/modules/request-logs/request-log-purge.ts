import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { AppConfig } from 'src/core/config/app-config.service';
import { JobRegistry } from 'src/core/scheduler/job-registry';

export const PURGE_REQUEST_LOGS_JOB = 'request_logs.purge';

/**
 * The daily purge: deletes the tenant's (one mode's) request log rows older than
 * REQUEST_LOG_RETENTION_DAYS by real time, in batches so a large backlog never holds long locks.
 */
@Injectable()
export class RequestLogPurge implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.registry.register(PURGE_REQUEST_LOGS_JOB, {
      run: async (manager, job) => {
        const days = this.config.get('REQUEST_LOG_RETENTION_DAYS');
        for (;;) {
          const [, deleted]: [unknown, number] = await manager.query(
            `DELETE FROM "request_logs" WHERE "id" IN (
               SELECT "id" FROM "request_logs"
               WHERE "tenant_id" = $1 AND "livemode" = $2 AND "created_at" < now() - make_interval(days => $3)
               LIMIT 5000)`,
            [job.tenantId, job.livemode, days],
          );
          if (deleted < 5000) {
            return;
          }
        }
      },
    });
  }
}

/** The purge handler alone: in the API (RequestLogsModule) and in the worker process. */
@Module({ providers: [RequestLogPurge] })
export class RequestLogPurgeModule {}
