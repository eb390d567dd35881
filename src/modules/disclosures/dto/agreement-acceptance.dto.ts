import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsIP,
  IsISO8601,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { AGREEMENT_NAMES } from 'src/modules/disclosures/disclosure-catalog';

/** One agreement the investor accepted (request). */
export class AgreementAcceptanceDto {
  @ApiProperty({ enum: AGREEMENT_NAMES, example: 'customer_agreement' })
  @IsIn(AGREEMENT_NAMES)
  agreement: string;

  @ApiProperty({
    example: '2025-06',
    description: 'Must be the current revision listed by GET /v1/disclosures.',
  })
  @IsString()
  @MaxLength(32)
  revision: string;

  @ApiPropertyOptional({
    format: 'date-time',
    example: '2025-11-20T10:15:00Z',
    description: 'When the investor accepted; defaults to now; never in the future.',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  signed_at?: string;

  @ApiProperty({ example: '203.0.113.7', description: 'IPv4 or IPv6 address the investor accepted from.' })
  @IsIP()
  ip_address: string;
}

export class AcceptAgreementsDto {
  @ApiProperty({ type: [AgreementAcceptanceDto], minItems: 1, maxItems: 10 })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => AgreementAcceptanceDto)
  agreements: AgreementAcceptanceDto[];
}
