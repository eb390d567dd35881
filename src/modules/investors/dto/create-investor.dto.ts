import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsISO4217CurrencyCode,
  IsOptional,
  ValidateNested,
} from 'class-validator';
import { ENABLED_ASSETS, TRADING_TYPES } from 'src/modules/accounts/entities/account-types';
import { AgreementAcceptanceDto } from 'src/modules/disclosures/dto/agreement-acceptance.dto';
import {
  ContactInputDto,
  DisclosuresInputDto,
  IdentityInputDto,
} from 'src/modules/investors/dto/investor-input.dto';
import { IsMetadata } from 'src/core/http/metadata';

const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value);

export class CreateInvestorDto {
  @ApiProperty({ type: IdentityInputDto })
  @IsDefined()
  @ValidateNested()
  @Type(() => IdentityInputDto)
  identity: IdentityInputDto;

  @ApiProperty({ type: ContactInputDto })
  @IsDefined()
  @ValidateNested()
  @Type(() => ContactInputDto)
  contact: ContactInputDto;

  @ApiProperty({ type: DisclosuresInputDto })
  @IsDefined()
  @ValidateNested()
  @Type(() => DisclosuresInputDto)
  disclosures: DisclosuresInputDto;

  @ApiPropertyOptional({
    type: [AgreementAcceptanceDto],
    maxItems: 10,
    description: 'Disclosures already accepted, at their current revision (see GET /v1/disclosures).',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => AgreementAcceptanceDto)
  agreements?: AgreementAcceptanceDto[];

  @ApiPropertyOptional({ example: 'USD', default: 'USD', description: 'Primary currency (ISO 4217).' })
  @IsOptional()
  @Transform(upper)
  @IsISO4217CurrencyCode()
  currency?: string;

  @ApiPropertyOptional({
    enum: TRADING_TYPES,
    default: 'cash',
    description: '`margin` needs the margin_agreement accepted (422 SVC-422-001 otherwise).',
  })
  @IsOptional()
  @IsIn(TRADING_TYPES)
  trading_type?: string;

  @ApiPropertyOptional({
    enum: ENABLED_ASSETS,
    isArray: true,
    default: ['us_equity', 'etf'],
    description: '`crypto` needs the crypto_agreement, `us_option` the options_agreement (422 otherwise).',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(ENABLED_ASSETS.length)
  enabled_assets?: string[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { partner_user_id: 'u_1029' },
    description: 'Up to 50 keys (40 characters) with string values (500 characters).',
  })
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, string>;
}
