import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, ValidateIf } from 'class-validator';

export class DeliveryAttemptDto {
  @ApiProperty({ example: 'wda_7Qm2sLq0VbN3xYz7TmW1pA' })
  id: string;

  @ApiProperty({ enum: ['webhook_delivery_attempt'], example: 'webhook_delivery_attempt' })
  object: 'webhook_delivery_attempt';

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 0,
    maximum: 253402300799,
    description: 'Unix seconds of the attempt.',
    example: 1763790000,
  })
  created: number;

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    description: 'When the POST was sent.',
    example: '2026-11-22T10:15:30.123Z',
  })
  attempted_at: string;

  @ApiProperty({ example: 'evt_8Kd2sLq0VbN3xYz7TmW1pA' })
  event_id: string;

  @ApiProperty({ example: 'we_4fJx2m9QpT7aLk3Vn8ZcYw' })
  webhook_id: string;

  @ApiProperty({
    description: "The endpoint's url now (attempts do not keep the url of their time).",
    example: 'https://partner.example.com/webhooks/investment',
  })
  url: string;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: 2147483647,
    description: '0 for the original delivery; each resend starts a new run at attempt 1.',
    example: 0,
  })
  run: number;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: 6,
    description: '1 is the first try; 2 to 6 the retries.',
    example: 1,
  })
  attempt: number;

  @ApiProperty({ description: 'True when the receiver answered 2xx.', example: false })
  succeeded: boolean;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 100,
    maximum: 599,
    nullable: true,
    description: "The receiver's HTTP status; null when no answer came (see `error`).",
    example: 503,
  })
  status_code: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the attempt failed without an answer (timeout, connection refused, blocked address).',
    example: null,
  })
  error: string | null;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647, example: 120 })
  duration_ms: number;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'When the next retry is due; null after a success or the last attempt.',
    example: '2026-11-22T10:16:30.000Z',
  })
  next_retry_at: string | null;
}

export class ResendEventDto {
  @ApiPropertyOptional({
    description:
      'A webhook endpoint id (we_): resend to this endpoint only. Omitted: to every enabled endpoint of this ' +
      'mode subscribed to the event now (a test event: to its own endpoint).',
    maxLength: 64,
    example: 'we_4fJx2m9QpT7aLk3Vn8ZcYw',
  })
  // null is refused (400), not taken for "omitted".
  @ValidateIf((_, value) => value !== undefined)
  @IsString()
  @MaxLength(64)
  endpoint?: string;
}

export class ResentDeliveryDto {
  @ApiProperty({ example: 'we_4fJx2m9QpT7aLk3Vn8ZcYw' })
  webhook_id: string;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: 2147483647,
    description: 'The run the resend starts (its attempts carry this run number).',
    example: 1,
  })
  run: number;
}

export class EventResendDto {
  @ApiProperty({ enum: ['event_resend'], example: 'event_resend' })
  object: 'event_resend';

  @ApiProperty({ example: 'evt_8Kd2sLq0VbN3xYz7TmW1pA' })
  event_id: string;

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({
    type: [ResentDeliveryDto],
    maxItems: 100,
    description: 'One entry per endpoint the event is sent to again (empty when none is subscribed).',
  })
  deliveries: ResentDeliveryDto[];
}
