import { Module } from '@nestjs/common';
import { WebhookSinkInbox } from 'src/modules/webhook-sinks/webhook-sink-inbox.service';

/** Recording side of webhook sinks, for the API and the delivery worker alike. */
@Module({
  providers: [WebhookSinkInbox],
  exports: [WebhookSinkInbox],
})
export class WebhookSinkInboxModule {}
