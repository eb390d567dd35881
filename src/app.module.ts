import { Module } from '@nestjs/common';
import { CoreModule } from 'src/core/core.module';
import { WebhooksModule } from 'src/modules/webhooks/webhooks.module';

@Module({
  imports: [CoreModule, WebhooksModule],
})
export class AppModule {}
