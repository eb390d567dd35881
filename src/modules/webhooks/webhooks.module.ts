import { Module } from '@nestjs/common';
import { EventTypesController } from 'src/modules/webhooks/event-types.controller';

@Module({
  controllers: [EventTypesController],
})
export class WebhooksModule {}
