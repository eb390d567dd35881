import { ApiProperty } from '@nestjs/swagger';
import { ACCOUNT_STATUSES, KYC_STATUSES } from 'src/modules/accounts/entities/account-types';
import { KYC_REQUIREMENTS } from 'src/modules/compliance/kyc-requirements';
import { KYC_REJECTION_REASONS } from 'src/modules/compliance/sandbox-kyc-review';
import { UNIX_SECONDS } from 'src/core/http/integer-schemas';

/** An investor's KYC state (envelope style, object: kyc_verification). */
export class KycVerificationDto {
  @ApiProperty({ enum: ['kyc_verification'], example: 'kyc_verification' })
  object: 'kyc_verification';

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ example: 'inv_4Qm1bX9kLr2TzP0aVn7c8w' })
  investor_id: string;

  @ApiProperty({ format: 'uuid', example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b' })
  account_id: string;

  @ApiProperty({
    enum: KYC_STATUSES,
    example: 'approved',
    description:
      '`not_submitted` → `in_review` (submitted) → `approved` or `rejected`. A rejected application can be ' +
      'corrected and submitted again.',
  })
  status: string;

  @ApiProperty({ enum: ACCOUNT_STATUSES, example: 'ACTIVE' })
  account_status: string;

  @ApiProperty({
    enum: KYC_REQUIREMENTS,
    isArray: true,
    example: [],
    description:
      'What still prevents submission: `identity_document` (an id_front or passport not rejected), `w8ben` ' +
      '(tax residence outside the US), `tax_id`, `customer_agreement` (current revision). Empty once approved.',
  })
  missing: string[];

  @ApiProperty({ enum: KYC_REJECTION_REASONS, isArray: true, example: [] })
  rejection_reasons: string[];

  @ApiProperty({ ...UNIX_SECONDS, nullable: true, example: 1763633700, description: 'Unix seconds.' })
  submitted_at: number | null;

  @ApiProperty({ ...UNIX_SECONDS, nullable: true, example: 1763633700, description: 'Unix seconds.' })
  decided_at: number | null;
}

/** The `kyc` block of an investor. */
export class KycSummaryDto {
  @ApiProperty({ enum: KYC_STATUSES, example: 'not_submitted' })
  status: string;

  @ApiProperty({
    enum: KYC_REQUIREMENTS,
    isArray: true,
    example: ['identity_document', 'customer_agreement'],
  })
  missing: string[];
}
