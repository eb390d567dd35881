import { ApiProperty } from '@nestjs/swagger';
import { AGREEMENT_NAMES, DISCLOSURE_SCOPES } from 'src/modules/disclosures/disclosure-catalog';

/** A regulatory document at its current revision (envelope style, object: disclosure). */
export class DisclosureDto {
  @ApiProperty({ enum: ['disclosure'], example: 'disclosure' })
  object: 'disclosure';

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ enum: AGREEMENT_NAMES, example: 'customer_agreement' })
  agreement: string;

  @ApiProperty({ example: 'Customer Agreement' })
  title: string;

  @ApiProperty({ example: 'Terms of the brokerage account, custody, fees and dispute resolution.' })
  description: string;

  @ApiProperty({ example: '2025-06', description: 'Current revision: the one an acceptance must name.' })
  revision: string;

  @ApiProperty({ format: 'date', example: '2025-06-01' })
  effective_date: string;

  @ApiProperty({
    enum: DISCLOSURE_SCOPES,
    isArray: true,
    example: ['account'],
    description: '`account`: needed for KYC approval; others: needed before enabling that feature.',
  })
  required_for: string[];
}

/** An agreement recorded on an investor's account (envelope style, object: agreement). */
export class AgreementDto {
  @ApiProperty({ enum: ['agreement'], example: 'agreement' })
  object: 'agreement';

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ example: 'inv_4Qm1bX9kLr2TzP0aVn7c8w' })
  investor_id: string;

  @ApiProperty({ format: 'uuid', example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b' })
  account_id: string;

  @ApiProperty({ enum: AGREEMENT_NAMES, example: 'customer_agreement' })
  agreement: string;

  @ApiProperty({ example: '2025-06' })
  revision: string;

  @ApiProperty({ format: 'date-time', example: '2025-11-20T10:15:00.000Z' })
  signed_at: string;

  @ApiProperty({ example: '203.0.113.7' })
  ip_address: string;
}
