import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { CursorPageQuery } from 'src/core/http/pagination';

export class ListEventsQuery extends CursorPageQuery {
  @ApiPropertyOptional({
    description:
      'An event name (`order.filled`) or a wildcard (`order.*`, `transfer.deposit.*`, `*`). Names are those of ' +
      '`GET /v1/webhooks/event-types`, plus `webhook.test`.',
    example: 'order.*',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  event?: string;

  /** `created[gte]`, `created[gt]`, `created[lte]`, `created[lt]` in Unix seconds (documented on the route). */
  @IsOptional()
  @IsObject()
  created?: Record<string, unknown>;
}
