import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { CursorPageQuery } from 'src/core/http/pagination';
import { HTTP_METHODS } from 'src/modules/request-logs/dto/request-log.dto';

export class ListRequestLogsQuery extends CursorPageQuery {
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 100,
    maximum: 599,
    description: 'Only requests answered with this HTTP status.',
    example: 422,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(599)
  status?: number;

  @ApiPropertyOptional({
    enum: ['success', 'failed'],
    description: '`failed`: status 400 and above; `success`: below 400.',
    example: 'failed',
  })
  @IsOptional()
  @IsIn(['success', 'failed'])
  outcome?: 'success' | 'failed';

  @ApiPropertyOptional({ enum: HTTP_METHODS, description: 'Only this HTTP method.', example: 'POST' })
  @IsOptional()
  @IsIn(HTTP_METHODS)
  method?: string;

  @ApiPropertyOptional({
    description: 'Only paths starting with this (`/v1/investors` matches `/v1/investors/inv_...`).',
    maxLength: 512,
    example: '/v1/investors',
  })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  path?: string;

  /** `created[gte]`, `created[gt]`, `created[lte]`, `created[lt]` in Unix seconds (documented on the route). */
  @IsOptional()
  @IsObject()
  created?: Record<string, unknown>;
}
