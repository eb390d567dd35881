import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, TenantLevel, TestModeOnly } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { CreateFxQuoteDto, FxQuoteDto, FxRateDto, SetFxRateDto } from 'src/modules/fx/dto/fx.dto';
import { FxQuotesService } from 'src/modules/fx/fx-quotes.service';
import { FxRatesService, fxPair } from 'src/modules/fx/fx-rates.service';
import { ServiceError } from 'src/core/errors/service-error';

export const FX_RULES =
  'Currencies: USD, NGN and KES, both ways. The mid rate is a simulated walk on the clock around reference rates ' +
  '(or the test helper\u2019s rate in test mode); `rate` = mid_rate × (1 − spread_bps / 10,000), 8 decimals ' +
  'half-even, with the tenant\u2019s `fx_spread_bps` (default 100). Given `amount`, `to_amount` = amount × rate ' +
  'rounded down to to_currency\u2019s minor unit; given `to_amount`, `from_amount` = to_amount ÷ rate rounded up to ' +
  'from_currency\u2019s minor unit.';

@ApiTags('FX')
@Controller()
export class FxController {
  constructor(
    private readonly quotes: FxQuotesService,
    private readonly rates: FxRatesService,
  ) {}

  @Post('fx/quotes')
  @ApiOperation({
    operationId: 'createFxQuote',
    summary: 'Quote a currency conversion',
    description:
      `Answers an \`fx_quote\` held for 30 seconds on the clock (\`expires_at\`), to be booked once with ` +
      `POST /v1/wallet/accounts/{account_id}/conversions and \`quote_id\`. ${FX_RULES} The same currency twice: ` +
      '400 naming `to_currency`; both amounts or neither: 400 naming `to_amount`.',
  })
  @ApiCreatedResponse({ type: FxQuoteDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002')
  create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateFxQuoteDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<FxQuoteDto> {
    return this.quotes.create(principal, body, idem);
  }

  @Post('test_helpers/fx-rates')
  @HttpCode(200)
  @TestModeOnly()
  @TenantLevel()
  @ApiOperation({
    operationId: 'setTestFxRate',
    summary: 'Set a mid FX rate (test mode)',
    description:
      'Fixes the mid rate of a pair (to_currency per from_currency) for your test mode until set again, and the ' +
      'reverse pair to its inverse (8 decimals half-even); `rate: null` returns both to the simulated walk. ' +
      'Quotes already given keep their rate. Live keys get 404; investor-scoped keys 403 SVC-403-001.',
  })
  @ApiOkResponse({ type: FxRateDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002')
  setRate(
    @CurrentPrincipal() principal: Principal,
    @Body() body: SetFxRateDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<FxRateDto> {
    const pair = fxPair(body.from_currency, body.to_currency);
    if (body.rate === undefined) {
      throw ServiceError.missing('rate', 'rate is required: a decimal string, or null to reset.');
    }
    return this.rates.set(principal, pair, body.rate, idem);
  }
}
