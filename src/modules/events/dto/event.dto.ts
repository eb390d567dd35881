import { ApiProperty } from '@nestjs/swagger';
import { EVENT_NAMES, WEBHOOK_TEST_EVENT } from 'src/core/events/event-types';

/** The event record: what webhooks deliver and what the event list returns, field for field. */
export class EventDto {
  @ApiProperty({
    description: 'Event id (`evt_`). Deduplicate on it: a retried or replayed delivery keeps it.',
    example: 'evt_8Kd2sLq0VbN3xYz7TmW1pA',
  })
  id: string;

  @ApiProperty({ enum: ['event'], example: 'event' })
  object: 'event';

  @ApiProperty({ enum: [...EVENT_NAMES, WEBHOOK_TEST_EVENT], example: 'order.filled' })
  event: string;

  @ApiProperty({
    format: 'date-time',
    description: 'When the change happened.',
    example: '2025-11-22T14:03:11.512Z',
  })
  timestamp: string;

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The object concerned. For order.filled: id, investor_id, symbol, side, status, filled_quantity, average_price.',
    example: {
      id: 'ord_3nF8qK1sX0aZ7vB2mL9cTw',
      investor_id: 'inv_5pR7tY2uW9qE1oI3aS6dFg',
      symbol: 'AAPL',
      side: 'buy',
      status: 'filled',
      filled_quantity: '10',
      average_price: '189.42',
    },
  })
  data: Record<string, unknown>;
}
