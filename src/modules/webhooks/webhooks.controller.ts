import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal, TenantLevel } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { EVENT_TYPES } from 'src/core/events/event-types';
import { listUrl, ListEnvelope, toList } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import { CursorPageQuery } from 'src/core/http/pagination';
import { CreateWebhookDto } from 'src/modules/webhooks/dto/create-webhook.dto';
import { EventTypeDto } from 'src/modules/webhooks/dto/event-type.dto';
import { UpdateWebhookDto } from 'src/modules/webhooks/dto/update-webhook.dto';
import {
  DeletedWebhookEndpointDto,
  WebhookEndpointDto,
  WebhookEndpointWithSecretDto,
} from 'src/modules/webhooks/dto/webhook-endpoint.dto';
import { WebhooksService } from 'src/modules/webhooks/webhooks.service';
import { DeliveriesService } from 'src/modules/webhooks/deliveries.service';
import { DeliveryAttemptDto } from 'src/modules/webhooks/dto/delivery-attempt.dto';
import { ReadsMayLag } from 'src/core/database/replicas/read-context';

const eventTypeRecords = (livemode: boolean): EventTypeDto[] =>
  EVENT_TYPES.map((t) => ({ object: 'event_type', livemode, name: t.name, description: t.description }));
/** The catalogue as each mode's keys see it (spec, Resource envelope: livemode on every resource). */
const EVENT_TYPE_RECORDS = { test: eventTypeRecords(false), live: eventTypeRecords(true) };

const WEBHOOK_ID = { name: 'webhook_id', example: 'we_4fJx2m9QpT7aLk3Vn8ZcYw' };

const DELIVERY =
  'Deliveries are HTTP POSTs of the event record signed per Standard Webhooks (`webhook-id` = event id, ' +
  '`webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`); any 2xx within 30 s is success; ' +
  'failures are retried after about 1 min, 5 min, 30 min, 2 h and 8 h, then kept for support to replay; ' +
  'a 410 answer disables the endpoint.';

@ApiTags('Webhooks')
@TenantLevel()
@Controller('webhooks')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly deliveries: DeliveriesService,
  ) {}

  @Get('event-types')
  @ApiOperation({
    operationId: 'listWebhookEventTypes',
    summary: 'List event types',
    description:
      'Every event name an endpoint can subscribe to. Subscribe with exact names or a domain wildcard ' +
      '(`order.*`, `transfer.*`, `account.*`, `document.*`, `kyc.*`) or `*` for all.',
  })
  @ApiOkResponse({ type: ListEnvelopeOf(EventTypeDto, '/v1/webhooks/event-types') })
  listEventTypes(@CurrentPrincipal() principal: Principal, @Req() req: Request): ListEnvelope<EventTypeDto> {
    return toList(listUrl(req), EVENT_TYPE_RECORDS[principal.livemode ? 'live' : 'test'], false);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createWebhook',
    summary: 'Register a webhook endpoint',
    description: `Registers a url for the events named in \`eventTypeNames\`. The response carries the signing secret, shown only now. ${DELIVERY}`,
  })
  @ApiCreatedResponse({ type: WebhookEndpointWithSecretDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002', 'SVC-422-001')
  create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateWebhookDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<WebhookEndpointWithSecretDto> {
    return this.webhooks.create(principal, body, idem);
  }

  @Get()
  @ReadsMayLag()
  @ApiOperation({
    operationId: 'listWebhooks',
    summary: 'List webhook endpoints',
    description: 'Newest first.',
  })
  @ApiOkResponse({ type: ListEnvelopeOf(WebhookEndpointDto, '/v1/webhooks') })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: CursorPageQuery,
    @Req() req: Request,
  ): Promise<ListEnvelope<WebhookEndpointDto>> {
    return this.webhooks.list(principal, query, listUrl(req));
  }

  @Get(':webhook_id')
  @ApiOperation({
    operationId: 'getWebhook',
    summary: 'Retrieve a webhook endpoint',
    description: 'Without its secret.',
  })
  @ApiParam(WEBHOOK_ID)
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiErrors('SVC-404-001')
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('webhook_id') id: string,
  ): Promise<WebhookEndpointDto> {
    return this.webhooks.get(principal, id);
  }

  @Get(':webhook_id/attempts')
  @ApiOperation({
    operationId: 'listWebhookDeliveryAttempts',
    summary: "List an endpoint's delivery attempts",
    description:
      'Every POST to this endpoint, newest first: time, event, url, the status code or the network error, ' +
      'duration and when the next retry is due. The share of failed attempts among the latest page is the ' +
      "endpoint's recent failure rate (the dashboard shows it).",
  })
  @ApiParam(WEBHOOK_ID)
  @ApiOkResponse({
    type: ListEnvelopeOf(DeliveryAttemptDto, '/v1/webhooks/we_4fJx2m9QpT7aLk3Vn8ZcYw/attempts'),
  })
  @ApiErrors('SVC-400-001', 'SVC-404-001')
  attempts(
    @CurrentPrincipal() principal: Principal,
    @Param('webhook_id') id: string,
    @Query() query: CursorPageQuery,
    @Req() req: Request,
  ): Promise<ListEnvelope<DeliveryAttemptDto>> {
    return this.deliveries.forEndpoint(principal, id, query, listUrl(req));
  }

  @Patch(':webhook_id')
  @ApiOperation({
    operationId: 'updateWebhook',
    summary: 'Update a webhook endpoint',
    description:
      'Any of name, url, eventTypeNames, status (`enabled`/`disabled`) and metadata; omitted fields keep their value.',
  })
  @ApiParam(WEBHOOK_ID)
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiErrors('SVC-400-001', 'SVC-404-001')
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('webhook_id') id: string,
    @Body() body: UpdateWebhookDto,
  ): Promise<WebhookEndpointDto> {
    return this.webhooks.update(principal, id, body);
  }

  @Delete(':webhook_id')
  @ApiOperation({
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook endpoint',
    description: 'Stops deliveries at once, pending retries included.',
  })
  @ApiParam(WEBHOOK_ID)
  @ApiOkResponse({ type: DeletedWebhookEndpointDto })
  @ApiErrors('SVC-404-001')
  remove(
    @CurrentPrincipal() principal: Principal,
    @Param('webhook_id') id: string,
  ): Promise<DeletedWebhookEndpointDto> {
    return this.webhooks.remove(principal, id);
  }

  @Post(':webhook_id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    summary: 'Rotate the signing secret',
    description:
      'Returns a new secret (shown only now). For 24 hours deliveries carry two signatures, one per secret, ' +
      'so receivers can switch without missing events.',
  })
  @ApiParam(WEBHOOK_ID)
  @ApiOkResponse({ type: WebhookEndpointWithSecretDto })
  @ApiErrors('SVC-404-001')
  rotateSecret(
    @CurrentPrincipal() principal: Principal,
    @Param('webhook_id') id: string,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<WebhookEndpointWithSecretDto> {
    return this.webhooks.rotateSecret(principal, id, idem);
  }
}
