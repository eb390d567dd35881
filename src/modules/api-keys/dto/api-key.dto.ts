import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, IsString, Length } from 'class-validator';
import { IsMetadata } from 'src/core/http/metadata';
import { UNIX_SECONDS } from 'src/core/http/integer-schemas';

export class CreateApiKeyDto {
  @ApiPropertyOptional({
    example: 'Mobile app',
    maxLength: 100,
    description: 'A label for your own use; a key created without one has an empty name.',
  })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-12-31T23:59:59Z',
    description: 'When the key stops working (status `expired`); must be in the future. Default: never.',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  expires_at?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { device: 'ios' },
  })
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, string>;
}

/** API key record (spec: API key). The secret is never part of it. */
export class ApiKeyDto {
  @ApiProperty({ example: 'apk_8hN2cQ5vT1mZ0bW7xLr4yA' })
  id: string;

  @ApiProperty({ enum: ['api_key'], example: 'api_key' })
  object: 'api_key';

  @ApiProperty({
    ...UNIX_SECONDS,
    nullable: true,
    description: 'Unix seconds of creation.',
    example: 1763633700,
  })
  created: number | null;

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ example: 'inv_4Qm1bX9kLr2TzP0aVn7c8w', description: 'The investor the key is scoped to.' })
  account_id: string;

  @ApiProperty({ example: 'Mobile app' })
  name: string;

  @ApiProperty({
    enum: ['TEST', 'PRODUCTION'],
    example: 'TEST',
    description: 'Follows the mode of the key that created it.',
  })
  environment: string;

  @ApiProperty({ enum: ['active', 'revoked', 'expired'], example: 'active' })
  status: string;

  @ApiProperty({ example: 'pk_test_Vb3xQ9mK2nR7tY1wZ5cA8dEf', description: 'The HTTP Basic username.' })
  public_key: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  expires_at: string | null;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: {} })
  metadata: Record<string, string>;
}

/** The creation response: the record plus the secret, shown this once. */
export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({
    example: 'sk_test_3q9XbV0aT4mW1xRy7cN2pZ3k9QbV0aT4mW1xRy7cN2',
    description: 'The HTTP Basic password. Returned only in this response; store it now.',
  })
  secret: string;
}
