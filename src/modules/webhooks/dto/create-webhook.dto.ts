import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsOptional,
  IsString,
  Length,
  MaxLength,
} from 'class-validator';
import { IsMetadata } from 'src/core/http/metadata';
import { EVENT_TYPE_NAMES_DESCRIPTION, RefuseEventsField } from 'src/modules/webhooks/dto/webhook-fields';
import { MAX_URL_LENGTH } from 'src/modules/webhooks/webhook-url-policy';

export class CreateWebhookDto {
  @RefuseEventsField()
  events?: never;

  @ApiProperty({ description: 'Label shown in lists, 1 to 100 characters.', example: 'Order updates' })
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({
    description:
      'Where events are POSTed. HTTPS is required in production and with live keys, and the host must ' +
      'resolve to public addresses only (no private, loopback or link-local ones). Sandbox test keys may ' +
      'use http and loopback.',
    example: 'https://partner.example.com/webhooks/investment',
    maxLength: MAX_URL_LENGTH,
  })
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  url: string;

  @ApiProperty({
    description: EVENT_TYPE_NAMES_DESCRIPTION,
    example: ['order.*', 'transfer.deposit.completed'],
    // Names outside the event-type list and its wildcards are refused, and none is that long.
    items: { type: 'string', maxLength: 100 },
  })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(50)
  eventTypeNames: string[];

  @ApiPropertyOptional({
    description: 'Up to 50 string values for your own use.',
    example: { team: 'payments' },
    type: 'object',
    additionalProperties: { type: 'string' },
  })
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, string>;
}
