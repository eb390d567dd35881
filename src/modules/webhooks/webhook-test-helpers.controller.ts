import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, TenantLevel, TestModeOnly } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { EventPayload } from 'src/core/events/events.service';
import { EventDto } from 'src/modules/events/dto/event.dto';
import { WebhooksService } from 'src/modules/webhooks/webhooks.service';

@ApiTags('Webhooks')
@TenantLevel()
@TestModeOnly()
@Controller('test_helpers/webhooks')
export class WebhookTestHelpersController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post(':webhook_id/test-event')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'sendWebhookTestEvent',
    summary: 'Send a test event (test mode)',
    description:
      'Sends a `webhook.test` event, signed like every delivery, to this endpoint only and at once (retries ' +
      'and attempts as usual). Returns the event. Test keys only: live keys get 404.',
  })
  @ApiParam({ name: 'webhook_id', example: 'we_4fJx2m9QpT7aLk3Vn8ZcYw' })
  @ApiOkResponse({ type: EventDto })
  @ApiErrors('SVC-404-001', 'SVC-409-001')
  sendTestEvent(
    @CurrentPrincipal() principal: Principal,
    @Param('webhook_id') id: string,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<EventPayload> {
    return this.webhooks.sendTestEvent(principal, id, idem);
  }
}
