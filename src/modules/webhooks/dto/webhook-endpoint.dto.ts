import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_STATUSES, WebhookStatus } from 'src/modules/webhooks/entities/webhook-endpoint.entity';

export class WebhookEndpointDto {
  @ApiProperty({ example: 'we_4fJx2m9QpT7aLk3Vn8ZcYw' })
  id: string;

  @ApiProperty({ enum: ['webhook_endpoint'], example: 'webhook_endpoint' })
  object: 'webhook_endpoint';

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 0,
    maximum: 253402300799,
    description: 'Unix seconds of creation.',
    example: 1763790000,
  })
  created: number | null;

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { team: 'payments' } })
  metadata: Record<string, string>;

  @ApiProperty({ example: 'Order updates' })
  name: string;

  @ApiProperty({ example: 'https://partner.example.com/webhooks/investment' })
  url: string;

  @ApiProperty({ type: [String], example: ['order.*', 'transfer.deposit.completed'] })
  eventTypeNames: string[];

  @ApiProperty({
    enum: WEBHOOK_STATUSES,
    description: '`disabled` by the partner, or automatically when the receiver answered 410 Gone.',
    example: 'enabled',
  })
  status: WebhookStatus;
}

export class WebhookEndpointWithSecretDto extends WebhookEndpointDto {
  @ApiProperty({
    description:
      'Signing secret (Standard Webhooks). Returned only here: on creation and on rotation. Keep it; it ' +
      'cannot be read again.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw4M2hBm+9G+w=',
  })
  secret: string;
}

export class DeletedWebhookEndpointDto {
  @ApiProperty({ example: 'we_4fJx2m9QpT7aLk3Vn8ZcYw' })
  id: string;

  @ApiProperty({ enum: ['webhook_endpoint'], example: 'webhook_endpoint' })
  object: 'webhook_endpoint';

  @ApiProperty({ enum: [true], example: true })
  deleted: true;

  @ApiProperty({ example: false })
  livemode: boolean;
}
