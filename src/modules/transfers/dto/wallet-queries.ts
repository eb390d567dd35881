import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { OffsetPageQuery } from 'src/core/http/pagination';
import { ISO_INSTANT } from 'src/core/clock/dto/test-clock.dto';
import {
  TRANSFER_STATUSES,
  TRANSFER_TYPES,
  TransferStatus,
  TransferType,
} from 'src/modules/transfers/entities/transfer.entity';

/** GET /wallet/accounts/{account_id}/transactions: filters and offset paging like the order list. */
export class WalletTransactionsQuery extends OffsetPageQuery {
  @ApiPropertyOptional({ enum: TRANSFER_TYPES })
  @IsOptional()
  @IsIn(TRANSFER_TYPES)
  type?: TransferType;

  @ApiPropertyOptional({ enum: TRANSFER_STATUSES })
  @IsOptional()
  @IsIn(TRANSFER_STATUSES)
  status?: TransferStatus;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Only transactions created at or after this instant (ISO 8601 with offset).',
    example: '2026-03-01T00:00:00Z',
  })
  @IsOptional()
  @IsString()
  @Matches(ISO_INSTANT, { message: '$property must be an ISO 8601 date-time with an offset' })
  created_gte?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Only transactions created before this instant (ISO 8601 with offset).',
    example: '2026-04-01T00:00:00Z',
  })
  @IsOptional()
  @IsString()
  @Matches(ISO_INSTANT, { message: '$property must be an ISO 8601 date-time with an offset' })
  created_lt?: string;
}
