import { BullModule } from '@nestjs/bull';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from 'src/core/config/app-config.service';
import { QueueConnections } from 'src/core/queue/queue-connections';
import { QueueRuntime } from 'src/core/queue/queue-runtime';

export interface QueueModuleOptions {
  /**
   * Whether this process runs queue consumers (and the outbox relay). Unset: the API follows
   * WORKER_IN_PROCESS; the worker entry passes true; the CLI passes false (it only enqueues).
   */
  consumers?: boolean;
}

/**
 * Bull on the shared Redis. Every queue's keys start with QUEUE_PREFIX, so deployments (and
 * test files) sharing one Redis never consume each other's jobs.
 */
/** Holds the one QueueConnections of an app, for Bull's root options and for shutdown. */
@Module({ providers: [QueueConnections], exports: [QueueConnections] })
class QueueConnectionsModule {}

@Global()
@Module({})
export class QueueModule {
  static forRoot(options: QueueModuleOptions = {}): DynamicModule {
    return {
      module: QueueModule,
      imports: [
        BullModule.forRootAsync({
          imports: [QueueConnectionsModule],
          inject: [QueueConnections],
          useFactory: (connections: QueueConnections) => connections.rootOptions(),
        }),
        QueueConnectionsModule,
      ],
      providers: [
        {
          provide: QueueRuntime,
          inject: [AppConfig],
          useFactory: (config: AppConfig) =>
            new QueueRuntime(options.consumers ?? config.get('WORKER_IN_PROCESS')),
        },
      ],
      exports: [BullModule, QueueRuntime, QueueConnectionsModule],
    };
  }
}
