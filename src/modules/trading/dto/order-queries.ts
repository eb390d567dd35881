import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { ISO_INSTANT } from 'src/core/clock/dto/test-clock.dto';
import { OffsetPageQuery } from 'src/core/http/pagination';
import { ORDER_SIDES, ORDER_STATUSES, OrderSide, OrderStatus } from 'src/modules/trading/order-types';

/** GET /trading/accounts/{account_id}/orders (spec, Trading), plus `updated_since`. */
export class AccountOrdersQuery extends OffsetPageQuery {
  @ApiPropertyOptional({ enum: ORDER_STATUSES })
  @IsOptional()
  @IsIn(ORDER_STATUSES)
  status?: OrderStatus;

  @ApiPropertyOptional({ maxLength: 64, example: 'AAPL' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  symbol?: string;

  @ApiPropertyOptional({ enum: ORDER_SIDES })
  @IsOptional()
  @IsIn(ORDER_SIDES)
  side?: OrderSide;

  @ApiPropertyOptional({
    format: 'date-time',
    maxLength: 40,
    description:
      'Only orders changed at or after this instant (`updated_at`, ISO 8601 with offset): for syncing.',
    example: '2026-03-01T00:00:00Z',
  })
  @IsOptional()
  @IsString()
  @Matches(ISO_INSTANT, { message: '$property must be an ISO 8601 date-time with an offset' })
  updated_since?: string;
}
