import { Body, Controller, Get, Param, Put, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal, RequiresProductTenantLevel } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { listUrl } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { CashSweepReads } from 'src/modules/cash-sweep/cash-sweep-reads.service';
import type { EnrollmentView } from 'src/modules/cash-sweep/cash-sweep-views';
import { CashSweepEnrollmentDto, InterestPayoutDto } from 'src/modules/cash-sweep/dto/cash-sweep.dto';
import { ChangeEnrollmentDto, ListPayoutsQuery } from 'src/modules/cash-sweep/dto/cash-sweep.inputs';
import { EnrollmentsService } from 'src/modules/cash-sweep/enrollments.service';

const SCOPE =
  ' Tenant-level (investor keys 403); the Cash Management add-on must be enabled (legacy 403 body otherwise).';

export class CashProgramSummaryDto {
  @ApiProperty({ enum: ['cash_sweep_summary'], example: 'cash_sweep_summary' })
  object: 'cash_sweep_summary';

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 1000000000, example: 1250 })
  enrolled_accounts: number;

  @ApiProperty({
    format: 'date',
    description: 'The last day accrued: the day swept_cash describes.',
    example: '2027-03-06',
  })
  as_of: string;

  @ApiProperty({
    description: 'Sum of the enrolled accounts\u2019 cash_balance on as_of.',
    example: '1520000.00',
  })
  swept_cash: string;

  @ApiProperty({
    description: 'Interest accrued to investors this month (8 decimals).',
    example: '874.52054794',
  })
  accrued_this_month: string;

  @ApiProperty({
    description: 'The partner\u2019s correspondent fees this month (8 decimals).',
    example: '124.93150684',
  })
  correspondent_fees_this_month: string;

  @ApiProperty({ description: 'Interest paid into cash since 1 January (UTC).', example: '10245.18' })
  paid_this_year: string;
}

@ApiTags('Cash Management')
@RequiresProductTenantLevel('cash_management')
@Controller('cash-management')
export class CashProgramController {
  constructor(
    private readonly enrollments: EnrollmentsService,
    private readonly reads: CashSweepReads,
  ) {}

  @Get('accounts/:account_id/enrollment')
  @ApiParam({ name: 'account_id', format: 'uuid', example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b' })
  @ApiOperation({
    operationId: 'getCashSweepEnrollment',
    summary: 'Get an account\u2019s enrollment',
    description: `The account\u2019s tier and rates in its primary currency, or \`opted_out\`.${SCOPE}`,
  })
  @ApiOkResponse({ type: CashSweepEnrollmentDto })
  @ApiErrors('SVC-404-001')
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
  ): Promise<EnrollmentView> {
    return this.enrollments.get(principal, accountId);
  }

  @Put('accounts/:account_id/enrollment')
  @ApiParam({ name: 'account_id', format: 'uuid', example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b' })
  @ApiOperation({
    operationId: 'changeCashSweepEnrollment',
    summary: 'Change an account\u2019s enrollment',
    description:
      'Either `apr_tier_id` (an active tier of the account\u2019s currency; from the next day accrued) or ' +
      '`opted_out: true` (no more accrual; interest already accrued is still paid). An opted-out account that ' +
      `enrolls again accrues from that day on.${SCOPE}`,
  })
  @ApiOkResponse({ type: CashSweepEnrollmentDto })
  @ApiErrors('SVC-400-001', 'SVC-404-001')
  change(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Body() body: ChangeEnrollmentDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<EnrollmentView> {
    return this.enrollments.change(principal, accountId, body, idem);
  }

  @Get('summary')
  @ApiOperation({
    operationId: 'getCashProgramSummary',
    summary: 'Program summary',
    description:
      'One entry per currency: enrolled accounts, cash swept on the last day accrued, interest and correspondent ' +
      `fees accrued this month, interest paid this year.${SCOPE}`,
  })
  @ApiOkResponse({ type: ListEnvelopeOf(CashProgramSummaryDto, '/v1/cash-management/summary') })
  summary(@CurrentPrincipal() principal: Principal, @Req() req: Request) {
    return this.reads.summary(principal, listUrl(req));
  }

  @Get('payouts')
  @ApiOperation({
    operationId: 'listCashSweepPayouts',
    summary: 'List interest payouts',
    description:
      'Monthly payouts, newest first: `limit` 1 to 100 (default 50), `starting_after` a payout id, filters ' +
      `\`account_id\` and \`currency\`.${SCOPE}`,
  })
  @ApiOkResponse({ type: ListEnvelopeOf(InterestPayoutDto, '/v1/cash-management/payouts') })
  @ApiErrors('SVC-400-001', 'SVC-404-001')
  payouts(@CurrentPrincipal() principal: Principal, @Query() query: ListPayoutsQuery, @Req() req: Request) {
    return this.reads.payouts(principal, query, listUrl(req));
  }
}
