import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUUID, Matches, Max, MaxLength, Min } from 'class-validator';
import { CursorPageQuery } from 'src/core/http/pagination';
import {
  CORPORATE_ACTION_STATUSES,
  CORPORATE_ACTION_TYPES,
  CorporateActionStatus,
  CorporateActionType,
} from 'src/modules/corporate-actions/corporate-action.types';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export class ListCorporateActionsQuery extends CursorPageQuery {
  @ApiPropertyOptional({ example: 'AAPL' })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  symbol?: string;

  @ApiPropertyOptional({ enum: CORPORATE_ACTION_TYPES })
  @IsOptional()
  @IsIn(CORPORATE_ACTION_TYPES)
  type?: CorporateActionType;

  @ApiPropertyOptional({ enum: CORPORATE_ACTION_STATUSES })
  @IsOptional()
  @IsIn(CORPORATE_ACTION_STATUSES)
  status?: CorporateActionStatus;

  @ApiPropertyOptional({ format: 'date', description: 'ex_date on or after (YYYY-MM-DD).' })
  @IsOptional()
  @Matches(DATE, { message: 'ex_date_gte must be a date (YYYY-MM-DD)' })
  ex_date_gte?: string;

  @ApiPropertyOptional({ format: 'date', description: 'ex_date on or before (YYYY-MM-DD).' })
  @IsOptional()
  @Matches(DATE, { message: 'ex_date_lte must be a date (YYYY-MM-DD)' })
  ex_date_lte?: string;
}

export class ListEntitlementsQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50, description: 'Page size, 1 to 100.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ description: 'An account_id: returns the entitlements after it (account order).' })
  @IsOptional()
  @IsUUID()
  starting_after?: string;
}
