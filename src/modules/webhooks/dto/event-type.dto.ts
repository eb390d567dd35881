import { ApiProperty } from '@nestjs/swagger';
import { EVENT_NAMES } from 'src/core/events/event-types';

export class EventTypeDto {
  @ApiProperty({ enum: ['event_type'], example: 'event_type' })
  object: 'event_type';

  @ApiProperty({
    description: 'The mode of the key that asked (the catalogue is the same in both).',
    example: false,
  })
  livemode: boolean;

  @ApiProperty({ enum: EVENT_NAMES, example: 'order.filled' })
  name: string;

  @ApiProperty({ example: 'Order fully filled' })
  description: string;
}
