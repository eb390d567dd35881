import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export class CreateWebhookSinkDto {
  @ApiPropertyOptional({
    description:
      'HTTP status the sink answers every delivery with (200 to 599). Default: 200. A 5xx makes deliveries ' +
      'fail and retry on the usual schedule; 410 disables the endpoint.',
    example: 200,
    type: 'integer',
    minimum: 200,
    maximum: 599,
    format: 'int32',
  })
  @IsOptional()
  @IsInt()
  @Min(200)
  @Max(599)
  status_code?: number;
}

export class WebhookSinkDto {
  @ApiProperty({ example: 'whs_4fJx2m9QpT7aLk3Vn8ZcYw' })
  id: string;

  @ApiProperty({ enum: ['webhook_sink'], example: 'webhook_sink' })
  object: 'webhook_sink';

  @ApiProperty({
    description: 'Register this as a webhook endpoint url (test mode). It is on this deployment itself.',
    example: 'http://localhost:3000/v1/webhook-sinks/whs_4fJx2m9QpT7aLk3Vn8ZcYw',
  })
  url: string;

  @ApiProperty({ example: 200, type: 'integer', format: 'int32', minimum: 200, maximum: 599 })
  status_code: number;

  @ApiProperty({ example: false, enum: [false] })
  livemode: false;

  @ApiProperty({
    description: 'Unix seconds of creation.',
    example: 1795375800,
    type: 'integer',
    format: 'int64',
    minimum: 0,
    maximum: 253402300799,
  })
  created: number;
}

export class WebhookSinkRequestDto {
  @ApiProperty({
    description: 'Position in the sink, increasing.',
    example: 1,
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
  })
  sequence: number;

  @ApiProperty({ example: 'POST' })
  method: string;

  @ApiProperty({
    description:
      'Request headers as received, lower-case names; `webhook-id`, `webhook-timestamp` and `webhook-signature` ' +
      'verify the body (Standard Webhooks).',
    example: {
      'content-type': 'application/json',
      'webhook-id': 'evt_9xq2ZtM1Xb3l0pV7aQmN4w',
      'webhook-timestamp': '1795375800',
      'webhook-signature': 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    },
    type: 'object',
    maxProperties: 64,
    additionalProperties: { type: 'string' },
  })
  headers: Record<string, string>;

  @ApiProperty({
    description: 'The body exactly as received (verify the signature over this text).',
    example:
      '{"id":"evt_9xq2ZtM1Xb3l0pV7aQmN4w","event":"webhook.test","timestamp":"2026-11-22T19:30:00.000Z"}',
  })
  body: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T19:30:00.123Z' })
  received_at: string;
}

export class ListWebhookSinkRequestsQuery {
  @ApiPropertyOptional({
    description: 'Requests after this sequence number (for polling). Default: 0.',
    example: 0,
    type: 'integer',
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    format: 'int64',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  after?: number;

  @ApiPropertyOptional({
    description: 'At most this many (1 to 100). Default: 100.',
    example: 100,
    type: 'integer',
    minimum: 1,
    maximum: 100,
    format: 'int32',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

/** Path id of a sink; bounded like every path parameter. */
export class WebhookSinkParams {
  @IsString()
  @MaxLength(64)
  sink_id: string;
}
