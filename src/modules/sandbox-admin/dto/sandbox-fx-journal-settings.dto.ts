import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

const LIMIT = /^[1-9]\d{0,11}(\.\d{1,2})?$/;
const LIMIT_MESSAGE = '$property must be an amount above zero such as "10000" (at most 2 decimals)';

export class UpdateSandboxFxSettingsDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 5000,
    description: 'Spread kept on conversions, basis points of the mid rate (default 100). Absent: unchanged.',
    example: 150,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(5000)
  fx_spread_bps?: number;
}

export class SandboxFxSettingsDto {
  @ApiProperty({ example: 'ten_4fJx2m9QpT7aLk3Vn8ZcYw' })
  tenant_id: string;

  @ApiProperty({ example: 100 })
  fx_spread_bps: number;
}

export class UpdateSandboxJournalSettingsDto {
  @ApiPropertyOptional({
    type: String,
    pattern: LIMIT.source,
    maxLength: 15,
    description: 'Largest JNLC, in the journal\u2019s currency (default 10000). Absent: unchanged.',
    example: '10000',
  })
  @IsOptional()
  @IsString()
  @MaxLength(15)
  @Matches(LIMIT, { message: LIMIT_MESSAGE })
  journal_limit_per_entry?: string;

  @ApiPropertyOptional({
    type: String,
    pattern: LIMIT.source,
    maxLength: 15,
    description:
      'Most an account other than the firm account receives by JNLC on one day of the clock (default 50000). ' +
      'Absent: unchanged.',
    example: '50000',
  })
  @IsOptional()
  @IsString()
  @MaxLength(15)
  @Matches(LIMIT, { message: LIMIT_MESSAGE })
  journal_limit_per_day_per_account?: string;
}

export class SandboxJournalSettingsDto {
  @ApiProperty({ example: 'ten_4fJx2m9QpT7aLk3Vn8ZcYw' })
  tenant_id: string;

  @ApiProperty({ example: '10000' })
  journal_limit_per_entry: string;

  @ApiProperty({ example: '50000' })
  journal_limit_per_day_per_account: string;
}
