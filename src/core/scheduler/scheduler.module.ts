import { BullModule } from '@nestjs/bull';
import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from 'src/core/config/app-config.service';
import { QueueConnections } from 'src/core/queue/queue-connections';
import { queueLockSettings } from 'src/core/queue/queue-lock';
import { JobQueue, SCHEDULED_JOBS_QUEUE } from 'src/core/scheduler/job-queue.service';
import { JobRegistry } from 'src/core/scheduler/job-registry';
import { JobRelay } from 'src/core/scheduler/job-relay.service';
import { JobRunner } from 'src/core/scheduler/job-runner.service';
import { JobScheduler } from 'src/core/scheduler/job-scheduler.service';
import { JobWorker } from 'src/core/scheduler/job-worker.service';
import { ScheduledJobEntity } from 'src/core/scheduler/scheduled-job.entity';
import { ScheduledJobsRepository } from 'src/core/scheduler/scheduled-jobs.repository';

/**
 * Clock-driven jobs for every module: `JobScheduler` to schedule in the caller's transaction,
 * `JobRegistry` to register a handler per kind, `JobRunner` to run them (the relay and queue
 * consumer run only where QueueRuntime says consumers run). Needs ClockModule and QueueModule.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([ScheduledJobEntity]),
    BullModule.registerQueueAsync({
      name: SCHEDULED_JOBS_QUEUE,
      inject: [AppConfig, QueueConnections],
      useFactory: (config: AppConfig, connections: QueueConnections) => ({
        ...connections.queueOptions(SCHEDULED_JOBS_QUEUE),
        // A run whose process died is taken up again within JOB_LOCK_MS.
        settings: queueLockSettings(config.get('JOB_LOCK_MS')),
      }),
    }),
  ],
  providers: [ScheduledJobsRepository, JobRegistry, JobScheduler, JobRunner, JobQueue, JobRelay, JobWorker],
  exports: [JobScheduler, JobRegistry, JobRunner],
})
export class SchedulerModule {}
