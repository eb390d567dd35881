import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from 'src/modules/events/events.module';
import { DeliveriesService } from 'src/modules/webhooks/deliveries.service';
import { WebhookDeliveryModule } from 'src/modules/webhooks/delivery/webhook-delivery.module';
import { WebhookDeliveryAttemptEntity } from 'src/modules/webhooks/entities/webhook-delivery-attempt.entity';
import { EventDeliveriesController } from 'src/modules/webhooks/event-deliveries.controller';
import { WebhookTestHelpersController } from 'src/modules/webhooks/webhook-test-helpers.controller';
import { WebhooksController } from 'src/modules/webhooks/webhooks.controller';
import { WebhooksService } from 'src/modules/webhooks/webhooks.service';

/**
 * Webhook endpoint routes, delivery attempts and resends; delivery itself (relay, worker, dead
 * letters) comes from WebhookDeliveryModule.
 */
@Module({
  imports: [WebhookDeliveryModule, EventsModule, TypeOrmModule.forFeature([WebhookDeliveryAttemptEntity])],
  controllers: [WebhooksController, WebhookTestHelpersController, EventDeliveriesController],
  providers: [WebhooksService, DeliveriesService],
})
export class WebhooksModule {}
