import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Length,
  MaxLength,
} from 'class-validator';
import { WEBHOOK_STATUSES, WebhookStatus } from 'src/modules/webhooks/entities/webhook-endpoint.entity';
import { IsMetadata } from 'src/core/http/metadata';
import { EVENT_TYPE_NAMES_DESCRIPTION, RefuseEventsField } from 'src/modules/webhooks/dto/webhook-fields';
import { MAX_URL_LENGTH } from 'src/modules/webhooks/webhook-url-policy';

/** Any of the registration fields, plus status; omitted fields keep their value. */
export class UpdateWebhookDto {
  @RefuseEventsField()
  events?: never;

  @ApiPropertyOptional({ example: 'Order updates (v2)' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({
    description:
      'Checked like at registration (HTTPS and public addresses in production and with live keys).',
    example: 'https://partner.example.com/webhooks/v2',
    maxLength: MAX_URL_LENGTH,
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  url?: string;

  @ApiPropertyOptional({
    description: `Replaces the list. ${EVENT_TYPE_NAMES_DESCRIPTION}`,
    example: ['order.*'],
    items: { type: 'string', maxLength: 100 },
  })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(50)
  eventTypeNames?: string[];

  @ApiPropertyOptional({
    enum: WEBHOOK_STATUSES,
    description:
      '`disabled` stops deliveries (pending retries are dropped); `enabled` resumes them for new events.',
    example: 'disabled',
  })
  @IsOptional()
  @IsIn(WEBHOOK_STATUSES)
  status?: WebhookStatus;

  @ApiPropertyOptional({
    description: 'Merged into the stored metadata; a key set to an empty string is removed.',
    example: { team: 'payments', legacy: '' },
    type: 'object',
    additionalProperties: { type: 'string' },
  })
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, string>;
}
