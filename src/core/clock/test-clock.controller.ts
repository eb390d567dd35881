import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, TenantLevel, TestModeOnly } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { MoveTestClockDto, TestClockDto } from 'src/core/clock/dto/test-clock.dto';
import { TestClockService } from 'src/core/clock/test-clock.service';
import { ApiErrors } from 'src/core/errors/error-docs';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';

const CLOCK_READERS =
  'In test mode the clock is read by market clocks and sessions, prices and market data, transfer lifecycle ' +
  'delays and every money object’s timestamps (wallet transactions, deposits, withdrawals, funding sources). ' +
  'Webhook delivery and its `webhook-timestamp`, event `timestamp`, logs, rate limits, idempotency and key ' +
  'expiry stay on real time; live mode always uses real time.';

@ApiTags('Test clock')
@TenantLevel()
@TestModeOnly()
@Controller('test_helpers/clock')
export class TestClockController {
  constructor(private readonly clock: TestClockService) {}

  @Get()
  @ApiOperation({
    operationId: 'getTestClock',
    summary: 'Read the test clock',
    description:
      `Each tenant’s test mode has one clock, following real time until frozen. ${CLOCK_READERS} Test keys ` +
      'only (live keys get 404); tenant keys only.',
  })
  @ApiOkResponse({ type: TestClockDto })
  get(@CurrentPrincipal() principal: Principal): Promise<TestClockDto> {
    return this.clock.get(principal);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'moveTestClock',
    summary: 'Freeze, advance or reset the test clock',
    description:
      '`{"frozen_time": ISO}` freezes the clock there; `{"advance_seconds": N}` (N > 0) moves it forward (a ' +
      'clock following real time freezes at real time + N); `{"frozen_time": null}` resets it to real time ' +
      '(allowed any time; objects keep their timestamps). The clock only moves forward: an earlier time than ' +
      'it shows answers 400 naming the field; a move of a frozen clock, and any advance, covers at most 366 ' +
      'days, while a clock following real time may be frozen at any later date before 2100 (so a walkthrough ' +
      'can name a fixed date and work on any day). The answer comes after every ' +
      'job of the tenant that fell due up to the new time has run, earliest first, each at the moment the ' +
      `clock passes its due time (transfers moving to processing and settling, and jobs they schedule). ${CLOCK_READERS}`,
  })
  @ApiOkResponse({ type: TestClockDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002')
  move(
    @CurrentPrincipal() principal: Principal,
    @Body() body: MoveTestClockDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<TestClockDto> {
    return this.clock.move(principal, body, idem);
  }
}
