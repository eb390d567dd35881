import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, TenantLevel, TestModeOnly } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import {
  CreateWebhookSinkDto,
  ListWebhookSinkRequestsQuery,
  WebhookSinkDto,
  WebhookSinkRequestDto,
} from 'src/modules/webhook-sinks/dto/webhook-sink.dto';
import { WebhookSinksService } from 'src/modules/webhook-sinks/webhook-sinks.service';

const SINK_ID = { name: 'sink_id', example: 'whs_4fJx2m9QpT7aLk3Vn8ZcYw' };

@ApiTags('Webhook sinks')
@TenantLevel()
@TestModeOnly()
@Controller('test_helpers/webhook-sinks')
export class WebhookSinksController {
  constructor(private readonly sinks: WebhookSinksService) {}

  @Post()
  @ApiOperation({
    operationId: 'createWebhookSink',
    summary: 'Create a webhook sink (test mode)',
    description:
      'A receiver hosted by the sandbox: register its `url` as a webhook endpoint (test keys) and read what ' +
      'arrived with `GET .../requests`, headers and body exactly as sent, so Standard Webhooks signatures can be ' +
      'verified. Sinks are on this deployment, so the webhook URL rules (https, public hosts) let them through ' +
      'in every environment. A sink keeps its latest 1,000 requests; it goes with its tenant. Test keys only ' +
      '(live keys get 404); tenant keys only.',
  })
  @ApiCreatedResponse({ type: WebhookSinkDto })
  @ApiErrors('SVC-400-001')
  create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateWebhookSinkDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<WebhookSinkDto> {
    return this.sinks.create(principal, body ?? {}, idem);
  }

  @Get(':sink_id')
  @ApiOperation({
    operationId: 'getWebhookSink',
    summary: 'Retrieve a webhook sink (test mode)',
    description: 'The sink with its url and the status it answers with. Test keys only; tenant keys only.',
  })
  @ApiParam(SINK_ID)
  @ApiOkResponse({ type: WebhookSinkDto })
  get(@CurrentPrincipal() principal: Principal, @Param('sink_id') sinkId: string): Promise<WebhookSinkDto> {
    return this.sinks.get(principal, sinkId);
  }

  @Get(':sink_id/requests')
  @ApiOperation({
    operationId: 'listWebhookSinkRequests',
    summary: 'List the requests a webhook sink received (test mode)',
    description:
      'Oldest first. Poll with `after` set to the last `sequence` seen. Each request: method, headers, the body ' +
      'as received and when it arrived.',
  })
  @ApiParam(SINK_ID)
  @ApiOkResponse({
    type: ListEnvelopeOf(WebhookSinkRequestDto, '/v1/test_helpers/webhook-sinks/whs_.../requests'),
  })
  @ApiErrors('SVC-400-001')
  async requests(
    @CurrentPrincipal() principal: Principal,
    @Param('sink_id') sinkId: string,
    @Query() query: ListWebhookSinkRequestsQuery,
  ) {
    const page = await this.sinks.requests(principal, sinkId, query.after ?? 0, query.limit ?? 100);
    return { object: 'list', url: `/v1/test_helpers/webhook-sinks/${sinkId}/requests`, ...page };
  }
}
