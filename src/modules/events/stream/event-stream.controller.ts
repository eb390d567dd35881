import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { StreamEventsQuery } from 'src/modules/events/dto/stream-events.query';
import { EventStreamsService } from 'src/modules/events/stream/event-streams.service';

const STREAM_EXAMPLE =
  'retry: 1000\n\n' +
  'id: evt_8Kd2sLq0VbN3xYz7TmW1pA\n' +
  'event: order.filled\n' +
  'data: {"id":"evt_8Kd2sLq0VbN3xYz7TmW1pA","object":"event","event":"order.filled",' +
  '"timestamp":"2025-11-22T14:03:11.512Z","livemode":false,"data":{"id":"ord_3nF8qK1sX0aZ7vB2mL9cTw",' +
  '"investor_id":"inv_5pR7tY2uW9qE1oI3aS6dFg","symbol":"AAPL","side":"buy","status":"filled"}}\n\n' +
  ': heartbeat\n\n';

@ApiTags('Events')
@Controller('events/stream')
export class EventStreamController {
  constructor(private readonly streams: EventStreamsService) {}

  @Get()
  @ApiOperation({
    operationId: 'streamEvents',
    summary: 'Stream events (Server-Sent Events)',
    description:
      'The events of this tenant and mode as they commit, over one long-lived `text/event-stream` response: ' +
      'each event once, as `id: <event id>`, `event: <name>` and `data: <the webhook payload>` (the record of ' +
      '`GET /v1/events`), in commit order; a comment line `: heartbeat` every 15 s. Any key of the tenant may ' +
      'open one; an investor-scoped key sees only the events whose `data.investor_id` is its investor.\n\n' +
      'Resume with the `Last-Event-ID` header (browsers send it on reconnect) or `since_id`: the events after ' +
      'that one are replayed first, as long as `GET /v1/events` lists them. An id the key cannot read is 400 ' +
      'naming `since_id`. Events that commit out of the order they were created in (a long transaction) may ' +
      'come after a later one; deduplicate on `id`.\n\n' +
      'At most 10 open streams per API key, counted across every server (429 `SVC-429-001` with Retry-After ' +
      'beyond); closing the connection frees its slot at once. A reader that falls more than 1 MiB behind ' +
      'gets a comment `: closing: ...` and the end of the stream, and resumes from its last id. Events of every ' +
      'server process reach every stream within a second.',
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'The id of the last event received: the stream resumes after it. Wins over `since_id`.',
    schema: { type: 'string', maxLength: 128, example: 'evt_8Kd2sLq0VbN3xYz7TmW1pA' },
  })
  @ApiOkResponse({
    description: 'An endless Server-Sent Events stream.',
    content: { 'text/event-stream': { schema: { type: 'string' }, example: STREAM_EXAMPLE } },
  })
  @ApiErrors('SVC-400-001', 'SVC-429-001', 'SVC-503-001')
  async stream(
    @CurrentPrincipal() principal: Principal,
    @Query() query: StreamEventsQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    await this.streams.open(principal, query, lastEventId, res);
  }
}
