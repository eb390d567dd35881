import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal, TenantLevel, TestModeOnly } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { listUrl, ListEnvelope } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import { AssetDto } from 'src/modules/assets/dto/asset.dto';
import { SetPricesDto } from 'src/modules/assets/dto/set-prices.dto';
import { PriceTestHelpersService } from 'src/modules/assets/price-test-helpers.service';

@ApiTags('Assets')
@Controller('test_helpers/prices')
export class PriceTestHelpersController {
  constructor(private readonly helpers: PriceTestHelpersService) {}

  @Post()
  @HttpCode(200)
  @TestModeOnly()
  @TenantLevel()
  @ApiOperation({
    operationId: 'setTestPrices',
    summary: 'Set simulated prices (test mode)',
    description:
      'Fixes the last price of one asset (`symbol`, `price`) or several (`prices`) for your test mode until ' +
      'changed again; `price: null` returns the asset to the seeded simulation. Bid and ask follow the price ' +
      'with the asset’s usual spread; the previous close stays the simulated one. Overrides are per tenant ' +
      'and never affect live mode or other tenants. Answers the updated asset resources. Live keys get 404; ' +
      'prices are tenant-wide, so investor-scoped keys get 403 SVC-403-001.',
  })
  @ApiOkResponse({ type: ListEnvelopeOf(AssetDto, '/v1/assets/search') })
  @ApiErrors('SVC-400-001', 'SVC-400-002')
  set(
    @CurrentPrincipal() principal: Principal,
    @Body() body: SetPricesDto,
    @Req() req: Request,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<ListEnvelope<AssetDto>> {
    return this.helpers.setPrices(principal, body, listUrl(req), idem);
  }
}
