import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

/** GET .../financial-plan (spec, Wealth): include_projections, and a stored version. */
export class FinancialPlanQuery {
  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description:
      'true adds each goal\u2019s `projection`: the monthly path to its target date and a seeded p10/p50/p90 range.',
  })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsIn([true, false], { message: 'include_projections must be true or false' })
  include_projections?: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: 2147483647,
    description:
      'A stored version (1 = the first write); default the current one. Unknown versions answer 404.',
    example: 2,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(2147483647)
  version?: number;
}
