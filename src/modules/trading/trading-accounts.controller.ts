import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { AccountOrdersQuery } from 'src/modules/trading/dto/order-queries';
import { AccountOrderDto, PositionDto } from 'src/modules/trading/dto/order.dto';
import { TradingService } from 'src/modules/trading/trading.service';
import { ReadsMayLag } from 'src/core/database/replicas/read-context';

const ACCOUNT_ID = ApiParam({
  name: 'account_id',
  format: 'uuid',
  example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b',
});
const VIEWS =
  'Account-style records (`qty`, `filled_qty`): the same orders as POST/GET /v1/investors/{investor_id}/orders ' +
  '(envelope style, `quantity`).';

@ApiTags('Trading')
@Controller('trading/accounts/:account_id')
@ACCOUNT_ID
export class TradingAccountsController {
  constructor(private readonly trading: TradingService) {}

  @Get('orders')
  @ReadsMayLag()
  @ApiOperation({
    operationId: 'listAccountOrders',
    summary: 'List orders of an account',
    description:
      `A bare array, newest first by submission (ties by id), stable under paging: \`limit\` 1 to 100 (default 50), ` +
      '`offset` ≥ 0 (default 0), filters `status`, `symbol`, `side`, and `updated_since` (orders changed at or after ' +
      `an instant: poll with the time of your last sync). ${VIEWS}`,
  })
  @ApiOkResponse({ type: [AccountOrderDto] })
  @ApiErrors('SVC-400-001', 'SVC-404-001')
  list(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Query() query: AccountOrdersQuery,
  ): Promise<AccountOrderDto[]> {
    return this.trading.listAccountOrders(principal, accountId, query);
  }

  @Get('orders/:order_id')
  @ApiParam({ name: 'order_id', example: 'ord_Xb4mT9qLc2Vn7Rz0Pk5WaE' })
  @ApiOperation({
    operationId: 'getAccountOrder',
    summary: 'Retrieve an order of an account',
    description: VIEWS,
  })
  @ApiOkResponse({ type: AccountOrderDto })
  @ApiErrors('SVC-404-001')
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Param('order_id') orderId: string,
  ): Promise<AccountOrderDto> {
    return this.trading.getAccountOrder(principal, accountId, orderId);
  }

  @Get('positions')
  @ReadsMayLag()
  @ApiOperation({
    operationId: 'listPositions',
    summary: 'List positions of an account',
    description:
      'A bare array of held positions (quantity above zero), oldest first: weighted average cost basis, total cost ' +
      'basis (fills at their execution value; commissions and accrued interest excluded), current price from the ' +
      'price engine (the price helper in the sandbox), market_value and unrealized_pl in the currency. Bonds: ' +
      'quantity is face value and prices are percent of par.',
  })
  @ApiOkResponse({ type: [PositionDto] })
  @ApiErrors('SVC-404-001')
  positions(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
  ): Promise<PositionDto[]> {
    return this.trading.listPositions(principal, accountId);
  }

  @Get('positions/:symbol')
  @ApiParam({ name: 'symbol', example: 'AAPL', description: 'Ticker or asset id.' })
  @ApiOperation({
    operationId: 'getPosition',
    summary: 'Retrieve a position by symbol',
    description: '404 when none is held.',
  })
  @ApiOkResponse({ type: PositionDto })
  @ApiErrors('SVC-404-001')
  position(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Param('symbol') symbol: string,
  ): Promise<PositionDto> {
    return this.trading.getPosition(principal, accountId, symbol);
  }
}
