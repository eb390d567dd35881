import { Module } from '@nestjs/common';
import { WebhookDeliveryModule } from 'src/modules/webhooks/delivery/webhook-delivery.module';
import { WebhookTestHelpersController } from 'src/modules/webhooks/webhook-test-helpers.controller';
import { WebhooksController } from 'src/modules/webhooks/webhooks.controller';
import { WebhooksService } from 'src/modules/webhooks/webhooks.service';

/** Webhook endpoint routes; delivery (relay, worker, dead letters) comes from WebhookDeliveryModule. */
@Module({
  imports: [WebhookDeliveryModule],
  controllers: [WebhooksController, WebhookTestHelpersController],
  providers: [WebhooksService],
})
export class WebhooksModule {}
