import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from 'src/core/config/app-config.service';
import { QueueConnections } from 'src/core/queue/queue-connections';
import { queueLockSettings } from 'src/core/queue/queue-lock';
import { EventEntity } from 'src/core/events/event.entity';
import { AttemptRecorder } from 'src/modules/webhooks/delivery/attempt-recorder.service';
import { AttemptSettler } from 'src/modules/webhooks/delivery/attempt-settler.service';
import { DeadLettersService } from 'src/modules/webhooks/delivery/dead-letters.service';
import { WEBHOOK_DELIVERY_QUEUE } from 'src/modules/webhooks/delivery/delivery-job';
import { DeliveryQueue } from 'src/modules/webhooks/delivery/delivery-queue.service';
import { DeliveryWorker } from 'src/modules/webhooks/delivery/delivery.worker';
import { OutboxRelay } from 'src/modules/webhooks/delivery/outbox-relay.service';
import { WebhookReplayService } from 'src/modules/webhooks/delivery/webhook-replay.service';
import { WebhookSender } from 'src/modules/webhooks/delivery/webhook-sender.service';
import { WebhookDeadLetterEntity } from 'src/modules/webhooks/entities/webhook-dead-letter.entity';
import { WebhookDeliveryAttemptEntity } from 'src/modules/webhooks/entities/webhook-delivery-attempt.entity';
import { WebhookEndpointEntity } from 'src/modules/webhooks/entities/webhook-endpoint.entity';
import { WebhookSinkInboxModule } from 'src/modules/webhook-sinks/webhook-sink-inbox.module';
import { WebhookEndpointsRepository } from 'src/modules/webhooks/webhook-endpoints.repository';
import { WebhookSecrets } from 'src/modules/webhooks/webhook-secrets';

/**
 * The delivery side of webhooks: outbox relay, delivery worker, dead letters and replay. Used by
 * the API (which runs the relay and worker only with WORKER_IN_PROCESS), the worker process and
 * the CLI (QueueModule says which of them consume).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      EventEntity,
      WebhookEndpointEntity,
      WebhookDeliveryAttemptEntity,
      WebhookDeadLetterEntity,
    ]),
    BullModule.registerQueueAsync({
      name: WEBHOOK_DELIVERY_QUEUE,
      inject: [AppConfig, QueueConnections],
      // A delivery whose process died is taken up again within JOB_LOCK_MS, as scheduled jobs are.
      useFactory: (config: AppConfig, connections: QueueConnections) => ({
        ...connections.queueOptions(WEBHOOK_DELIVERY_QUEUE),
        settings: queueLockSettings(config.get('JOB_LOCK_MS')),
      }),
    }),
    WebhookSinkInboxModule,
  ],
  providers: [
    WebhookEndpointsRepository,
    WebhookSecrets,
    WebhookSender,
    DeliveryQueue,
    AttemptRecorder,
    AttemptSettler,
    DeadLettersService,
    DeliveryWorker,
    OutboxRelay,
    WebhookReplayService,
  ],
  exports: [
    WebhookEndpointsRepository,
    WebhookSecrets,
    DeliveryQueue,
    DeadLettersService,
    WebhookReplayService,
    OutboxRelay,
    DeliveryWorker,
    WebhookSinkInboxModule,
  ],
})
export class WebhookDeliveryModule {}
