import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

/** The longest a clock may move in one call (a longer move is made in steps). */
export const MAX_MOVE_SECONDS = 366 * 24 * 3600;

/** An instant with its offset: 2026-03-02T15:30:00Z, 2026-03-02T10:30:00.250-05:00. */
export const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

export class TestClockDto {
  @ApiProperty({ enum: ['test_clock'], example: 'test_clock' })
  object: 'test_clock';

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Where the clock stands when frozen; null when it follows real time.',
    example: '2026-03-02T15:30:00.000Z',
  })
  frozen_time: string | null;

  @ApiProperty({
    format: 'date-time',
    description: 'The time test-mode objects and jobs of this tenant see now.',
    example: '2026-03-02T15:30:00.000Z',
  })
  now: string;

  @ApiProperty({ enum: [false], example: false })
  livemode: false;
}

export class MoveTestClockDto {
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'Freeze the clock at this instant (with its UTC offset), no earlier than the clock shows; a frozen ' +
      'clock moves at most 366 days at a time, a clock following real time may be frozen at any later ' +
      'instant before 2100. `null` resets the clock to real time. Send this or `advance_seconds`.',
    example: '2026-03-02T15:30:00Z',
  })
  @IsOptional()
  @IsString()
  @Matches(ISO_INSTANT, { message: 'frozen_time must be an ISO 8601 date-time with an offset, or null' })
  frozen_time?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_MOVE_SECONDS,
    description:
      'Move the clock forward this many seconds. A clock following real time freezes at real time plus this.',
    example: 3600,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_MOVE_SECONDS)
  advance_seconds?: number;
}
