import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Bond attributes (spec, Bond attributes): static terms plus values computed at the settlement date. */
export class BondAttributesDto {
  @ApiProperty({ description: '9 characters (US bonds).', example: '91282CLW9' })
  cusip: string;

  @ApiProperty({ description: '12 characters.', example: 'US91282CLW90' })
  isin: string;

  @ApiProperty({
    enum: ['outstanding', 'pre_issuance', 'matured'],
    description: 'matured once the maturity date has passed, pre_issuance before the issue date.',
    example: 'outstanding',
  })
  bond_status: string;

  @ApiProperty({ enum: ['treasury', 'corporate', 'municipal', 'agency', 'sovereign'], example: 'treasury' })
  bond_type: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Treasury subtype (bill, note, bond) or corporate sub-classification.',
    example: 'note',
  })
  bond_subtype: string | null;

  @ApiProperty({ type: String, format: 'date', nullable: true, example: '2034-11-15' })
  maturity_date: string | null;

  @ApiProperty({ type: String, format: 'date', nullable: true, example: '2024-11-15' })
  issue_date: string | null;

  @ApiProperty({ type: String, format: 'date', nullable: true, example: '2024-11-15' })
  dated_date: string | null;

  @ApiProperty({ type: String, format: 'date', nullable: true, example: '2025-05-15' })
  first_coupon_date: string | null;

  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    description: 'First coupon payment after the settlement date of a trade today; null for zero coupons.',
    example: '2027-05-15',
  })
  next_coupon_date: string | null;

  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    description: 'Final coupon payment date.',
    example: '2034-11-15',
  })
  last_coupon_date: string | null;

  @ApiProperty({
    description: 'Annual rate as decimal text (a fraction: 0.0425 is 4.25%).',
    example: '0.0425',
  })
  coupon_rate: string;

  @ApiProperty({ description: 'fixed, zero, floating, and others.', example: 'fixed' })
  coupon_type: string;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: 12,
    enum: [0, 1, 2, 4, 12],
    description: 'Payments per year: 1 annual, 2 semi-annual, 4 quarterly, 12 monthly, 0 zero/at maturity.',
    example: 2,
  })
  coupon_frequency: number;

  @ApiProperty({ enum: ['ACT/ACT', 'ACT/360', '30/360', 'ACT/365'], example: 'ACT/ACT' })
  accrual_basis: string;

  @ApiProperty({
    description: 'Per 100 face, from the last coupon to the settlement date of a trade today.',
    example: 0.117403,
  })
  accrued_interest: number;

  @ApiProperty({ description: 'Par value of one unit, in currency.', example: '100' })
  face_value: string;

  @ApiProperty({
    description: 'Minimum face-value purchase increment; orders must be multiples of it.',
    example: '100',
  })
  min_increment: string;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: 30,
    description:
      'T+N business days on the market calendar: 1 for treasuries, 2 for corporates; the settlement_date an ' +
      'order of this bond gets when it sends none.',
    example: 1,
  })
  settlement_period: number;

  @ApiProperty({ format: 'date', description: 'Date of the latest close price.', example: '2026-11-20' })
  close_price_date: string;

  @ApiPropertyOptional({
    description:
      'Yield to maturity of the current price, percent (bills: bond-equivalent yield). Absent once matured.',
    example: 4.2915,
  })
  yield_to_maturity?: number;

  @ApiPropertyOptional({
    description:
      'Lowest of the yield to maturity and the yield to the next call, percent. Absent once matured.',
    example: 4.2915,
  })
  yield_to_worst?: number;

  @ApiProperty({ example: false })
  callable: boolean;

  @ApiProperty({ example: false })
  puttable: boolean;

  @ApiProperty({ example: false })
  convertible: boolean;

  @ApiProperty({ example: false })
  perpetual: boolean;

  @ApiProperty({ type: String, format: 'date', nullable: true, example: null })
  next_call_date: string | null;

  @ApiProperty({ nullable: true, type: Number, example: null })
  next_call_price: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'none, make_whole, and others.',
    example: 'none',
  })
  call_type: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'United States Treasury' })
  issuer: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'T' })
  ticker: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Government' })
  sector: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'sovereign' })
  seniority: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'ISO country of the issuer.', example: 'US' })
  country_domicile: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Composite credit rating.', example: 'AA+' })
  rating: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'AA+' })
  sp_rating: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['positive', 'negative', 'stable', 'developing'],
    example: 'stable',
  })
  sp_outlook: string | null;
}
