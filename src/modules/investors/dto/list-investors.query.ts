import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { CursorPageQuery } from 'src/core/http/pagination';
import { INVESTOR_STATUSES, InvestorStatus } from 'src/modules/investors/investor-status';

export class ListInvestorsQuery extends CursorPageQuery {
  @ApiPropertyOptional({ example: 'ada.obi@example.com', description: 'Exact e-mail address, any case.' })
  @IsOptional()
  @IsString()
  @MaxLength(254)
  email?: string;

  @ApiPropertyOptional({ enum: INVESTOR_STATUSES })
  @IsOptional()
  @IsIn(INVESTOR_STATUSES)
  status?: InvestorStatus;
}
