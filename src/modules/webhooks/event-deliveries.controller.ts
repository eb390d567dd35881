import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal, TenantLevel } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { listUrl, ListEnvelope } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import { CursorPageQuery } from 'src/core/http/pagination';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { DeliveriesService } from 'src/modules/webhooks/deliveries.service';
import {
  DeliveryAttemptDto,
  EventResendDto,
  ResendEventDto,
} from 'src/modules/webhooks/dto/delivery-attempt.dto';

const EVENT_ID = { name: 'event_id', example: 'evt_8Kd2sLq0VbN3xYz7TmW1pA' };

@ApiTags('Events')
@TenantLevel()
@Controller('events')
export class EventDeliveriesController {
  constructor(private readonly deliveries: DeliveriesService) {}

  @Get(':event_id/attempts')
  @ApiOperation({
    operationId: 'listEventDeliveryAttempts',
    summary: "List an event's delivery attempts",
    description:
      'Every POST of this event to any endpoint, newest first: time, url, the status code or the network ' +
      'error, duration and when the next retry is due. Tenant-level: investor-scoped keys get 403.',
  })
  @ApiParam(EVENT_ID)
  @ApiOkResponse({
    type: ListEnvelopeOf(DeliveryAttemptDto, '/v1/events/evt_8Kd2sLq0VbN3xYz7TmW1pA/attempts'),
  })
  @ApiErrors('SVC-400-001', 'SVC-404-001')
  attempts(
    @CurrentPrincipal() principal: Principal,
    @Param('event_id') id: string,
    @Query() query: CursorPageQuery,
    @Req() req: Request,
  ): Promise<ListEnvelope<DeliveryAttemptDto>> {
    return this.deliveries.forEvent(principal, id, query, listUrl(req));
  }

  @Post(':event_id/resend')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'resendEvent',
    summary: 'Resend an event',
    description:
      'Sends the event again with the same event id (`webhook-id`), so receivers that already have it ' +
      'deduplicate: a new run of attempts (first try at once, then the usual retry schedule) to `endpoint`, ' +
      'or to every enabled endpoint subscribed to it now. Send an Idempotency-Key to make a retried call ' +
      'resend only once.',
  })
  @ApiParam(EVENT_ID)
  @ApiOkResponse({ type: EventResendDto })
  @ApiErrors('SVC-400-001', 'SVC-404-001', 'SVC-409-001')
  resend(
    @CurrentPrincipal() principal: Principal,
    @Param('event_id') id: string,
    @Body() body: ResendEventDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<EventResendDto> {
    return this.deliveries.resend(principal, id, body, idem);
  }
}
