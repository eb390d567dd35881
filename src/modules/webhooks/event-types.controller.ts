import { Controller, Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { TenantLevel } from 'src/core/auth/auth.decorators';
import { EVENT_TYPES } from 'src/core/events/event-types';
import { listUrl, toList, ListEnvelope } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import { EventTypeDto } from 'src/modules/webhooks/dto/event-type.dto';

const EVENT_TYPE_RECORDS: EventTypeDto[] = EVENT_TYPES.map((t) => ({
  object: 'event_type',
  name: t.name,
  description: t.description,
}));

@ApiTags('Webhooks')
@TenantLevel()
@Controller('webhooks/event-types')
export class EventTypesController {
  @Get()
  @ApiOperation({
    operationId: 'listWebhookEventTypes',
    summary: 'List event types',
    description:
      'Every event name an endpoint can subscribe to. Subscribe with exact names or a domain wildcard ' +
      '(`order.*`, `transfer.*`, `account.*`, `document.*`, `kyc.*`) or `*` for all.',
  })
  @ApiOkResponse({ type: ListEnvelopeOf(EventTypeDto, '/v1/webhooks/event-types') })
  list(@Req() req: Request): ListEnvelope<EventTypeDto> {
    return toList(listUrl(req), EVENT_TYPE_RECORDS, false);
  }
}
