import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsEmail,
  IsIn,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { FUNDING_SOURCES, PARTY_TYPES } from 'src/modules/accounts/entities/account-types';
import { TAX_ID_TYPES } from 'src/modules/investors/validation/tax-ids';
import {
  IsBirthDateOfAdult,
  IsCountryAlpha2,
  IsTaxIdOfType,
} from 'src/modules/investors/validation/validators';

const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value);
const NAME = /^[\p{L}\p{M}][\p{L}\p{M}' .-]*$/u;
export const E164 = /^\+[1-9]\d{6,14}$/;

/** Address (envelope style): street lines, optional unit, city, optional state and postal code, alpha-2 country. */
export class AddressInputDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: 100 },
    minItems: 1,
    maxItems: 3,
    example: ['20 N San Mateo Dr'],
    description: '1 to 3 lines of 1 to 100 characters.',
  })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(3)
  street: string[];

  @ApiPropertyOptional({ example: 'Apt 4', maxLength: 50 })
  @IsOptional()
  @IsString()
  @Length(1, 50)
  unit?: string;

  @ApiProperty({ example: 'San Mateo', maxLength: 100 })
  @IsString()
  @Length(1, 100)
  city: string;

  @ApiPropertyOptional({
    example: 'CA',
    description:
      'Required for US addresses, as the two-letter state code; otherwise optional (1-100 characters).',
  })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  state?: string;

  @ApiPropertyOptional({
    example: '94401',
    description: 'Required for US addresses (ZIP or ZIP+4); otherwise optional.',
    maxLength: 12,
  })
  @IsOptional()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/, {
    message: 'postal_code must be 2-12 letters, digits, spaces or -',
  })
  postal_code?: string;

  @ApiProperty({
    example: 'US',
    description: 'ISO 3166-1 alpha-2 (upper case; lower case is accepted).',
    minLength: 2,
    maxLength: 2,
  })
  @Transform(upper)
  @IsCountryAlpha2()
  country: string;
}

export class ContactInputDto {
  @ApiProperty({ example: 'ada.obi@example.com', maxLength: 254 })
  @IsEmail()
  @MaxLength(254)
  email_address: string;

  @ApiProperty({ example: '+14155550123', description: 'E.164: + then 7 to 15 digits.', maxLength: 16 })
  @Matches(E164, { message: 'phone_number must be in E.164 format, such as +14155550123' })
  phone_number: string;

  @ApiProperty({ type: AddressInputDto })
  @IsDefined()
  @ValidateNested()
  @Type(() => AddressInputDto)
  address: AddressInputDto;
}

export class IdentityInputDto {
  @ApiProperty({ example: 'Ada', maxLength: 100 })
  @Length(1, 100)
  @Matches(NAME, { message: 'first_name must contain letters, spaces, apostrophes, periods or hyphens only' })
  first_name: string;

  @ApiPropertyOptional({
    type: String,
    example: 'Chioma',
    maxLength: 100,
    nullable: true,
    description: 'null on an update removes it.',
  })
  @IsOptional()
  @Length(1, 100)
  @Matches(NAME, {
    message: 'middle_name must contain letters, spaces, apostrophes, periods or hyphens only',
  })
  middle_name?: string | null;

  @ApiProperty({ example: 'Obi', maxLength: 100 })
  @Length(1, 100)
  @Matches(NAME, { message: 'last_name must contain letters, spaces, apostrophes, periods or hyphens only' })
  last_name: string;

  @ApiProperty({
    format: 'date',
    example: '1990-04-12',
    description: 'In the past; the investor must be 18 or older.',
  })
  @IsBirthDateOfAdult(18)
  date_of_birth: string;

  @ApiProperty({ example: 'US', description: 'ISO 3166-1 alpha-2.', minLength: 2, maxLength: 2 })
  @Transform(upper)
  @IsCountryAlpha2()
  country_of_citizenship: string;

  @ApiProperty({ example: 'NG', description: 'ISO 3166-1 alpha-2.', minLength: 2, maxLength: 2 })
  @Transform(upper)
  @IsCountryAlpha2()
  country_of_birth: string;

  @ApiPropertyOptional({ enum: PARTY_TYPES, default: 'natural_person' })
  @IsOptional()
  @IsIn(PARTY_TYPES)
  party_type?: 'natural_person';

  @ApiProperty({
    enum: TAX_ID_TYPES,
    example: 'USA_SSN',
    description: 'Issuing country (alpha-3) and scheme; the country must be country_of_tax_residence.',
  })
  @IsIn(TAX_ID_TYPES)
  tax_id_type: string;

  @ApiPropertyOptional({
    example: '123-45-6789',
    description:
      'Formatted as tax_id_type requires (USA_SSN: `^\\d{3}-?\\d{2}-?\\d{4}$`). Required except for NOT_SPECIFIED. ' +
      'Only the last four characters are ever returned.',
    maxLength: 64,
  })
  @ValidateIf((o: IdentityInputDto) => o.tax_id_type !== 'NOT_SPECIFIED' || o.tax_id !== undefined)
  @IsString()
  @MaxLength(64)
  @IsTaxIdOfType('tax_id_type')
  tax_id?: string;

  @ApiProperty({ example: 'US', description: 'ISO 3166-1 alpha-2.', minLength: 2, maxLength: 2 })
  @Transform(upper)
  @IsCountryAlpha2()
  country_of_tax_residence: string;

  @ApiProperty({
    enum: FUNDING_SOURCES,
    isArray: true,
    minItems: 1,
    maxItems: FUNDING_SOURCES.length,
    example: ['employment_income'],
  })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(FUNDING_SOURCES.length)
  funding_source: string[];
}

export class DisclosuresInputDto {
  @ApiProperty({ example: false, description: 'Officer, director or 10 % shareholder of a listed company.' })
  @IsBoolean()
  is_control_person: boolean;

  @ApiProperty({ example: false })
  @IsBoolean()
  is_affiliated_exchange_or_finra: boolean;

  @ApiPropertyOptional({ type: Boolean, nullable: true, example: null })
  @IsOptional()
  @IsBoolean()
  is_affiliated_exchange_or_iiroc?: boolean | null;

  @ApiProperty({
    example: false,
    description:
      'Politically exposed person. In the sandbox, true keeps the KYC review open (manual review).',
  })
  @IsBoolean()
  is_politically_exposed: boolean;

  @ApiProperty({ example: false })
  @IsBoolean()
  immediate_family_exposed: boolean;

  @ApiPropertyOptional({ type: Boolean, nullable: true, example: null })
  @IsOptional()
  @IsBoolean()
  is_discretionary?: boolean | null;
}
