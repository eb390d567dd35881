import { Module } from '@nestjs/common';
import { WebhookSinkInboxController } from 'src/modules/webhook-sinks/webhook-sink-inbox.controller';
import { WebhookSinkInboxModule } from 'src/modules/webhook-sinks/webhook-sink-inbox.module';
import { WebhookSinksController } from 'src/modules/webhook-sinks/webhook-sinks.controller';
import { WebhookSinksService } from 'src/modules/webhook-sinks/webhook-sinks.service';

/** Test-mode webhook receivers hosted by the sandbox (see WebhookSinksService). */
@Module({
  imports: [WebhookSinkInboxModule],
  controllers: [WebhookSinksController, WebhookSinkInboxController],
  providers: [WebhookSinksService],
})
export class WebhookSinksModule {}
