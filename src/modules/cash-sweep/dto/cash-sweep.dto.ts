import { ApiProperty } from '@nestjs/swagger';

const UNIX = { type: 'integer', format: 'int64', minimum: 0, maximum: 253402300799 } as const;
const TIER_ID = 'apr_4kTq9Lm2XbVa7Pn0Rz4cWd';
const ACCOUNT_ID = '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b';

/** Spec, Interest history entry: one account, currency and calendar day. */
export class InterestHistoryEntryDto {
  @ApiProperty({ enum: ['interest_history_entry'], example: 'interest_history_entry' })
  object: 'interest_history_entry';

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({
    format: 'date',
    description: 'Calendar day in the market\u2019s time zone.',
    example: '2027-03-06',
  })
  date: string;

  @ApiProperty({ format: 'uuid', example: ACCOUNT_ID })
  account_id: string;

  @ApiProperty({ example: 'standard' })
  apr_tier_name: string;

  @ApiProperty({ example: TIER_ID })
  apr_tier_id: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ description: 'Settled cash at the end of the day, in minor units.', example: '10000.00' })
  cash_balance: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 10000, example: 350 })
  account_rate_bps: number;

  @ApiProperty({
    description: 'cash_balance × account_rate_bps / 10,000 / 365, rounded half-even to 8 decimals.',
    example: '0.95890411',
  })
  account_accrued_interest: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 10000, example: 50 })
  correspondent_rate_bps: number;

  @ApiProperty({
    description: 'cash_balance × correspondent_rate_bps / 10,000 / 365, rounded half-even to 8 decimals.',
    example: '0.13698630',
  })
  correspondent_fee: string;
}

export class InterestHistoryPageDto {
  @ApiProperty({ enum: ['list'], example: 'list' })
  object: 'list';

  @ApiProperty({ example: '/v1/investors/inv_8Wm2cQx4Lr7Tb1Nv5Zk9Pa/cash-sweep/interest' })
  url: string;

  @ApiProperty({ example: true })
  has_more: boolean;

  @ApiProperty({ type: InterestHistoryEntryDto, isArray: true })
  data: InterestHistoryEntryDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as page_token (with the same filters) for the next page; null on the last page.',
    example: 'eyJkIjoiMjAyNy0wMy0wNiIsImMiOiJVU0QifQ',
  })
  next_page_token: string | null;
}

export class AprTierDto {
  @ApiProperty({ example: TIER_ID })
  id: string;

  @ApiProperty({ enum: ['apr_tier'], example: 'apr_tier' })
  object: 'apr_tier';

  @ApiProperty({ ...UNIX, description: 'Unix seconds (clock time).', example: 1772465400 })
  created: number;

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: {} })
  metadata: Record<string, string>;

  @ApiProperty({ example: 'standard' })
  name: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 10000,
    description: 'The investor\u2019s share of the rate.',
    example: 350,
  })
  account_rate_bps: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 10000,
    description: 'The partner\u2019s share of the rate.',
    example: 50,
  })
  correspondent_rate_bps: number;

  @ApiProperty({ description: 'New accounts of the currency are enrolled in it.', example: true })
  is_default: boolean;

  @ApiProperty({ enum: ['active', 'retired'], example: 'active' })
  status: string;
}

export class CashSweepEnrollmentDto {
  @ApiProperty({ enum: ['cash_sweep_enrollment'], example: 'cash_sweep_enrollment' })
  object: 'cash_sweep_enrollment';

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ format: 'uuid', example: ACCOUNT_ID })
  account_id: string;

  @ApiProperty({ example: 'inv_8Wm2cQx4Lr7Tb1Nv5Zk9Pa' })
  investor_id: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ enum: ['enrolled', 'opted_out'], example: 'enrolled' })
  status: string;

  @ApiProperty({ type: String, nullable: true, description: 'null when opted out.', example: TIER_ID })
  apr_tier_id: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'standard' })
  apr_tier_name: string | null;

  @ApiProperty({ type: 'integer', nullable: true, minimum: 0, maximum: 10000, example: 350 })
  account_rate_bps: number | null;

  @ApiProperty({ type: 'integer', nullable: true, minimum: 0, maximum: 10000, example: 50 })
  correspondent_rate_bps: number | null;

  @ApiProperty({
    format: 'date',
    description: 'First day that accrues (or accrued) interest.',
    example: '2027-03-01',
  })
  accrual_start: string;

  @ApiProperty({ ...UNIX, description: 'Unix seconds of the last change.', example: 1772465400 })
  updated: number;
}

export class InterestPayoutDto {
  @ApiProperty({ example: 'ipay_2bQ7xRt5Lm9Kc3Vw8Pz1Nd' })
  id: string;

  @ApiProperty({ enum: ['interest_payout'], example: 'interest_payout' })
  object: 'interest_payout';

  @ApiProperty({ ...UNIX, description: 'Unix seconds of the payment (clock time).', example: 1775048400 })
  created: number;

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ format: 'uuid', example: ACCOUNT_ID })
  account_id: string;

  @ApiProperty({ example: 'inv_8Wm2cQx4Lr7Tb1Nv5Zk9Pa' })
  investor_id: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ description: 'The month paid, YYYY-MM.', example: '2027-03' })
  month: string;

  @ApiProperty({
    description: 'Paid into cash: accrued_interest rounded half-even to minor units.',
    example: '29.73',
  })
  amount: string;

  @ApiProperty({
    description: 'Sum of the month\u2019s daily account_accrued_interest.',
    example: '29.72602741',
  })
  accrued_interest: string;

  @ApiProperty({ description: 'Sum of the month\u2019s daily correspondent_fee.', example: '4.24657530' })
  correspondent_fee: string;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 31,
    description: 'Days of history in the month.',
    example: 31,
  })
  days: number;

  @ApiProperty({ format: 'date-time', example: '2027-04-01T13:00:00.000Z' })
  paid_at: string;
}

export class CashSweepOverviewDto {
  @ApiProperty({ enum: ['cash_sweep'], example: 'cash_sweep' })
  object: 'cash_sweep';

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ example: 'inv_8Wm2cQx4Lr7Tb1Nv5Zk9Pa' })
  investor_id: string;

  @ApiProperty({ type: CashSweepEnrollmentDto })
  enrollment: CashSweepEnrollmentDto;

  @ApiProperty({
    description: 'Interest accrued so far in the current month (8 decimals).',
    example: '5.75342466',
  })
  accrued_this_month: string;

  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    description: 'Latest day with an interest entry; null before the first.',
    example: '2027-03-06',
  })
  last_accrued_date: string | null;

  @ApiProperty({
    type: InterestPayoutDto,
    nullable: true,
    description: 'The latest payout; null before the first.',
  })
  last_payout: InterestPayoutDto | null;
}
