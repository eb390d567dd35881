import { ApiProperty } from '@nestjs/swagger';
import {
  ENABLED_ASSETS,
  FUNDING_SOURCES,
  PARTY_TYPES,
  TRADING_TYPES,
} from 'src/modules/accounts/entities/account-types';
import { AccountDisclosuresDto, HolderAgreementDto } from 'src/modules/accounts/dto/account.dto';
import { KycSummaryDto } from 'src/modules/compliance/dto/kyc-verification.dto';
import { INVESTOR_STATUSES } from 'src/modules/investors/investor-status';
import { TAX_ID_TYPES } from 'src/modules/investors/validation/tax-ids';
import { UNIX_SECONDS } from 'src/core/http/integer-schemas';

export class AddressDto {
  @ApiProperty({ type: [String], example: ['20 N San Mateo Dr'] })
  street: string[];

  @ApiProperty({ type: String, nullable: true, example: 'Apt 4' })
  unit: string | null;

  @ApiProperty({ example: 'San Mateo' })
  city: string;

  @ApiProperty({ type: String, nullable: true, example: 'CA' })
  state: string | null;

  @ApiProperty({ type: String, nullable: true, example: '94401' })
  postal_code: string | null;

  @ApiProperty({ example: 'US', description: 'ISO 3166-1 alpha-2.' })
  country: string;
}

export class ContactDto {
  @ApiProperty({ example: 'ada.obi@example.com', description: 'Stored in lower case.' })
  email_address: string;

  @ApiProperty({ example: '+14155550123' })
  phone_number: string;

  @ApiProperty({ type: AddressDto })
  address: AddressDto;
}

export class IdentityDto {
  @ApiProperty({ example: 'Ada' })
  first_name: string;

  @ApiProperty({ type: String, nullable: true, example: null })
  middle_name: string | null;

  @ApiProperty({ example: 'Obi' })
  last_name: string;

  @ApiProperty({ format: 'date', example: '1990-04-12' })
  date_of_birth: string;

  @ApiProperty({ example: 'US' })
  country_of_citizenship: string;

  @ApiProperty({ example: 'NG' })
  country_of_birth: string;

  @ApiProperty({ enum: PARTY_TYPES, example: 'natural_person' })
  party_type: string;

  @ApiProperty({ enum: TAX_ID_TYPES, example: 'USA_SSN' })
  tax_id_type: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '*****6789',
    description: 'Last four characters only.',
  })
  tax_id: string | null;

  @ApiProperty({ example: 'US' })
  country_of_tax_residence: string;

  @ApiProperty({ enum: FUNDING_SOURCES, isArray: true, example: ['employment_income'] })
  funding_source: string[];
}

/** The holder's disclosures (declared once, with the account record's). */
export class DisclosuresDto extends AccountDisclosuresDto {}

/** An accepted agreement (declared once, with the account record's). */
export class InvestorAgreementDto extends HolderAgreementDto {}

/** An investor (envelope style, object: investor). */
export class InvestorDto {
  @ApiProperty({ example: 'inv_4Qm1bX9kLr2TzP0aVn7c8w' })
  id: string;

  @ApiProperty({ enum: ['investor'], example: 'investor' })
  object: 'investor';

  @ApiProperty({
    ...UNIX_SECONDS,
    nullable: true,
    description: 'Unix seconds of creation.',
    example: 1763633700,
  })
  created: number | null;

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { partner_user_id: 'u_1029' },
  })
  metadata: Record<string, string>;

  @ApiProperty({
    enum: INVESTOR_STATUSES,
    example: 'active',
    description:
      'The account status in lower case, except `rejected`: the KYC review rejected the application (the ' +
      'account is SUBMITTED again and can be corrected and resubmitted).',
  })
  status: string;

  @ApiProperty({
    format: 'uuid',
    example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b',
    description: 'Investment account.',
  })
  account_id: string;

  @ApiProperty({ example: '1234567897' })
  account_number: string;

  @ApiProperty({ type: IdentityDto })
  identity: IdentityDto;

  @ApiProperty({ type: ContactDto })
  contact: ContactDto;

  @ApiProperty({ type: DisclosuresDto })
  disclosures: DisclosuresDto;

  @ApiProperty({ type: [InvestorAgreementDto] })
  agreements: InvestorAgreementDto[];

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ enum: TRADING_TYPES, example: 'cash' })
  trading_type: string;

  @ApiProperty({ enum: ENABLED_ASSETS, isArray: true, example: ['us_equity', 'etf'] })
  enabled_assets: string[];

  @ApiProperty({ type: KycSummaryDto })
  kyc: KycSummaryDto;
}
