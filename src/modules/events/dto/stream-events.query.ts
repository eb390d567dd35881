import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export class StreamEventsQuery {
  @ApiPropertyOptional({
    description:
      'One comma-separated value of event names and wildcards, as `eventTypeNames` of a webhook ' +
      '(`order.*,transfer.deposit.completed`). Every event when absent. An unknown name is 400 naming `types`.',
    example: 'order.*,transfer.deposit.completed',
  })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  types?: string;

  @ApiPropertyOptional({
    description:
      'An event id (`evt_`): the stream first replays, in order, the events after it (as long as ' +
      '`GET /v1/events` lists them), then goes live. The `Last-Event-ID` header wins when both are sent.',
    example: 'evt_8Kd2sLq0VbN3xYz7TmW1pA',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  since_id?: string;
}
