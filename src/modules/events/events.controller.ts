import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal, TenantLevel } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { EventPayload } from 'src/core/events/events.service';
import { ApiCreatedRange } from 'src/core/http/created-range';
import { listUrl, ListEnvelope } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import { EventDto } from 'src/modules/events/dto/event.dto';
import { ListEventsQuery } from 'src/modules/events/dto/list-events.query';
import { EventsReadService } from 'src/modules/events/events.service';
import { ReadsMayLag } from 'src/core/database/replicas/read-context';

@ApiTags('Events')
@TenantLevel()
@Controller('events')
export class EventsController {
  constructor(private readonly events: EventsReadService) {}

  @Get()
  @ReadsMayLag()
  @ApiOperation({
    operationId: 'listEvents',
    summary: 'List events',
    description:
      'Every event of this tenant and mode (test keys see test events only), newest first, so missed ' +
      'deliveries can be reconciled. The items are the exact payloads webhooks deliver. Tenant-level: ' +
      'investor-scoped keys get 403.',
  })
  @ApiOkResponse({ type: ListEnvelopeOf(EventDto, '/v1/events') })
  @ApiErrors('SVC-400-001')
  @ApiCreatedRange('events')
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListEventsQuery,
    @Req() req: Request,
  ): Promise<ListEnvelope<EventPayload>> {
    return this.events.list(principal, query, listUrl(req));
  }

  @Get(':event_id')
  @ApiOperation({ operationId: 'getEvent', summary: 'Retrieve an event', description: 'One event by id.' })
  @ApiParam({ name: 'event_id', example: 'evt_8Kd2sLq0VbN3xYz7TmW1pA' })
  @ApiOkResponse({ type: EventDto })
  @ApiErrors('SVC-404-001')
  get(@CurrentPrincipal() principal: Principal, @Param('event_id') id: string): Promise<EventPayload> {
    return this.events.get(principal, id);
  }
}
