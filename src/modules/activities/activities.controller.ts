import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { ActivityReads } from 'src/modules/activities/activity-reads.service';
import { ActivitiesQuery, ActivityDto } from 'src/modules/activities/dto/activity.dto';
import { ReadsMayLag } from 'src/core/database/replicas/read-context';

@ApiTags('Trading')
@Controller('trading/accounts/:account_id')
@ApiParam({ name: 'account_id', format: 'uuid', example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b' })
export class ActivitiesController {
  constructor(private readonly reads: ActivityReads) {}

  @Get('activities')
  @ReadsMayLag()
  @ApiOperation({
    operationId: 'listAccountActivities',
    summary: 'List activities of an account',
    description:
      'A bare array of every change of the account’s cash or positions: `FILL` (one per execution), `FEE` ' +
      '(commissions and transfer fees), `CSD` / `CSW` (deposit / withdrawal settled), `INT` (cash sweep interest ' +
      'paid), `DIV`, `DIVNRA`, `SPLIT`, `CIL`, `NC`, `MA`, `JNLC`, `JNLS`, `FXC`. Each is written in the transaction ' +
      'of the change it reports; per currency, the executed `net_amount`s sum to the change of settled cash. ' +
      'Newest first by default (`direction=asc` for oldest first); `page_size` 1 to 100 (default 50); ' +
      '`page_token` is the `id` of the last activity of the previous page. Ids grow in the order activities ' +
      'become visible, so a partner syncing with `direction=asc` from its last id never skips or repeats one, ' +
      'even while new ones are written. `date` is the business day in America/New_York; `after` is exclusive ' +
      'and `until` inclusive on `transaction_time`. A bad value is 400 naming the parameter.',
  })
  @ApiOkResponse({ type: [ActivityDto] })
  @ApiErrors('SVC-400-001', 'SVC-404-001')
  list(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Query() query: ActivitiesQuery,
  ): Promise<ActivityDto[]> {
    return this.reads.list(principal, accountId, query);
  }
}
