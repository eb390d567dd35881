import { ApiProperty } from '@nestjs/swagger';
import {
  ACCOUNT_STATUSES,
  ACCOUNT_TYPES,
  CRYPTO_STATUSES,
  ENABLED_ASSETS,
  FUNDING_SOURCES,
  PARTY_TYPES,
  TRADING_TYPES,
} from 'src/modules/accounts/entities/account-types';

export class AccountContactDto {
  @ApiProperty({ example: 'ada.obi@example.com' })
  email_address: string;

  @ApiProperty({ example: '+14155550123' })
  phone_number: string;

  @ApiProperty({
    type: [String],
    example: ['20 N San Mateo Dr', 'Apt 4'],
    description: 'Street lines; the envelope address’s `unit`, when given, is the last line.',
  })
  street_address: string[];

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'Address in local script; not collected, always null.',
  })
  local_street_address: string | null;

  @ApiProperty({ example: 'San Mateo' })
  city: string;

  @ApiProperty({ type: String, nullable: true, example: 'CA' })
  state: string | null;

  @ApiProperty({ type: String, nullable: true, example: '94401' })
  postal_code: string | null;

  @ApiProperty({ example: 'USA', description: 'ISO 3166-1 alpha-3.' })
  country: string;
}

export class AccountIdentityDto {
  @ApiProperty({ example: 'Ada' })
  first_name: string;

  @ApiProperty({ example: 'Obi' })
  last_name: string;

  @ApiProperty({ format: 'date', example: '1990-04-12' })
  date_of_birth: string;

  @ApiProperty({ example: 'USA', description: 'ISO 3166-1 alpha-3.' })
  country_of_citizenship: string;

  @ApiProperty({ example: 'NGA', description: 'ISO 3166-1 alpha-3.' })
  country_of_birth: string;

  @ApiProperty({ enum: PARTY_TYPES, example: 'natural_person' })
  party_type: string;

  @ApiProperty({ example: 'USA_SSN' })
  tax_id_type: string;

  @ApiProperty({ example: 'USA', description: 'ISO 3166-1 alpha-3.' })
  country_of_tax_residence: string;

  @ApiProperty({ enum: FUNDING_SOURCES, isArray: true, example: ['employment_income'] })
  funding_source: string[];
}

/** The holder's disclosures, as both the account record and the investor show them. */
export class AccountDisclosuresDto {
  @ApiProperty({ example: false })
  is_control_person: boolean;

  @ApiProperty({ example: false })
  is_affiliated_exchange_or_finra: boolean;

  @ApiProperty({ type: Boolean, nullable: true, example: null })
  is_affiliated_exchange_or_iiroc: boolean | null;

  @ApiProperty({ example: false })
  is_politically_exposed: boolean;

  @ApiProperty({ example: false })
  immediate_family_exposed: boolean;

  @ApiProperty({ type: Boolean, nullable: true, example: null })
  is_discretionary: boolean | null;
}

/** An agreement the holder accepted, as the investor shows it; the account record adds account_id. */
export class HolderAgreementDto {
  @ApiProperty({ example: 'customer_agreement' })
  agreement: string;

  @ApiProperty({ format: 'date-time', example: '2025-11-20T10:15:00.000Z' })
  signed_at: string;

  @ApiProperty({ example: '203.0.113.7' })
  ip_address: string;

  @ApiProperty({ example: '2025-06' })
  revision: string;
}

export class AccountAgreementDto extends HolderAgreementDto {
  @ApiProperty({ format: 'uuid', example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b' })
  account_id: string;
}

/** The investment account (account-style record, spec: Investment account). */
export class AccountDto {
  @ApiProperty({ format: 'uuid', example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b' })
  id: string;

  @ApiProperty({ example: '1234567897', description: 'Ten digits, the last a Luhn check digit.' })
  account_number: string;

  @ApiProperty({ enum: ACCOUNT_STATUSES, example: 'ACTIVE' })
  status: string;

  @ApiProperty({ enum: CRYPTO_STATUSES, example: 'INACTIVE' })
  crypto_status: string;

  @ApiProperty({ example: 'USD', description: 'Primary currency (ISO 4217).' })
  currency: string;

  @ApiProperty({ example: '0.00', description: 'Equity at the last close, decimal text.' })
  last_equity: string;

  @ApiProperty({ format: 'date-time', example: '2025-11-20T10:15:00.000Z' })
  created_at: string;

  @ApiProperty({ type: AccountContactDto })
  contact: AccountContactDto;

  @ApiProperty({ type: AccountIdentityDto })
  identity: AccountIdentityDto;

  @ApiProperty({ type: AccountDisclosuresDto })
  disclosures: AccountDisclosuresDto;

  @ApiProperty({ type: [AccountAgreementDto] })
  agreements: AccountAgreementDto[];

  @ApiProperty({ enum: ACCOUNT_TYPES, example: 'trading' })
  account_type: string;

  @ApiProperty({ enum: TRADING_TYPES, example: 'cash' })
  trading_type: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: null,
    description: 'Reserved for trading preferences; null.',
  })
  trading_configurations: Record<string, unknown> | null;

  @ApiProperty({ enum: ENABLED_ASSETS, isArray: true, example: ['us_equity', 'etf'] })
  enabled_assets: string[];
}
