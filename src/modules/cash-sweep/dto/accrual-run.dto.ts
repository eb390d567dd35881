import { ApiProperty } from '@nestjs/swagger';

export class AccrualRunDto {
  @ApiProperty({ enum: ['cash_sweep_accrual'], example: 'cash_sweep_accrual' })
  object: 'cash_sweep_accrual';

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ format: 'date', example: '2027-03-31' })
  through: string;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 1000000,
    description: 'Days gone through, per currency.',
    example: 31,
  })
  days_accrued: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 1000000000,
    description: 'New history entries (days already accrued add none).',
    example: 31,
  })
  entries_written: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 1000000000,
    description: 'Monthly payouts posted by this call.',
    example: 0,
  })
  payouts_made: number;
}
