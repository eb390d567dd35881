import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { ListEnvelope, listUrl } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import { CursorPageQuery } from 'src/core/http/pagination';
import {
  Idempotency,
  IdempotencyInTransaction,
  IdempotentRequest,
} from 'src/core/idempotency/idempotent-request';
import { ExecutionDto, OrderDto } from 'src/modules/trading/dto/order.dto';
import { PlaceOrderDto } from 'src/modules/trading/dto/place-order.dto';
import { TradingService } from 'src/modules/trading/trading.service';
import { PlaceOrder } from 'src/modules/trading/use-cases/place-order.use-case';
import { ReadsMayLag } from 'src/core/database/replicas/read-context';

const INVESTOR_ID = ApiParam({ name: 'investor_id', example: 'inv_4Qm1bX9kLr2TzP0aVn7c8w' });
const ORDER_ID = ApiParam({ name: 'order_id', example: 'ord_Xb4mT9qLc2Vn7Rz0Pk5WaE' });
const PLACEMENT =
  'Types market, limit, stop, stop_limit, trailing_stop; time_in_force day, gtc, opg, cls, ioc, fok; `quantity` or ' +
  '`notional` (exactly one; notional only market + day, at most the currency\u2019s decimals). Malformed input, ' +
  'forbidden combinations and orders worth less than one minor unit (0.01 USD) at their limit or stop price or ' +
  'the quote are 400 naming the field; bonds without fixedIncomeEnabled 403 SVC-403-002; then the business rules: 422 SVC-422-001 account ' +
  'not ACTIVE, SVC-422-006 asset not tradable or its class not in enabled_assets (`symbol`), SVC-422-005 bond ' +
  'quantity not a multiple of min_increment, SVC-422-004 market session does not allow the time_in_force, ' +
  'SVC-422-002 buying power (`quantity`/`notional`), SVC-422-003 position to sell. On acceptance the order\u2019s ' +
  'maximum cost plus commission is held (market orders: the quote plus a 5 % collar), or the units to sell are ' +
  'reserved; both are released when the order ends. Emits `order.accepted`; a marketable order in an open ' +
  'session fills at once (`order.filled` / `order.partially_filled`). Sandbox fill rule: buys at the ask, sells at ' +
  'the bid, at most the quote\u2019s displayed size per tick (the rest fills on later ticks; ioc cancels it, fok ' +
  'fills all or nothing; a fill that would be worth less than one minor unit ends the order: `rejected`, or ' +
  '`canceled` after partial fills, reason `worth less than 0.01 USD at execution`); day orders are canceled at the close, gtc orders stay. Bonds: quantity is face value, ' +
  'limit_price percent of par, cash = face × price / 100 + accrued interest to settlement_date (default T+1 ' +
  'treasuries, T+2 corporates on the market calendar); market or limit, day.';

@ApiTags('Trading')
@Controller('investors/:investor_id/orders')
@INVESTOR_ID
export class InvestorOrdersController {
  constructor(
    private readonly place: PlaceOrder,
    private readonly trading: TradingService,
  ) {}

  @Post()
  @IdempotencyInTransaction()
  @ApiOperation({ operationId: 'placeOrder', summary: 'Place an order', description: PLACEMENT })
  @ApiCreatedResponse({ type: OrderDto })
  @ApiErrors(
    'SVC-400-001',
    'SVC-400-002',
    'SVC-403-002',
    'SVC-404-001',
    'SVC-422-001',
    'SVC-422-002',
    'SVC-422-003',
    'SVC-422-004',
    'SVC-422-005',
    'SVC-422-006',
  )
  create(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Body() body: PlaceOrderDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<OrderDto> {
    return this.place.execute(principal, investorId, body, idem);
  }

  @Get()
  @ReadsMayLag()
  @ApiOperation({
    operationId: 'listOrders',
    summary: 'List orders',
    description: 'Newest first (list envelope).',
  })
  @ApiOkResponse({ type: ListEnvelopeOf(OrderDto, '/v1/investors/inv_4Qm1bX9kLr2TzP0aVn7c8w/orders') })
  @ApiErrors('SVC-400-001', 'SVC-404-001')
  list(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Query() query: CursorPageQuery,
    @Req() req: Request,
  ): Promise<ListEnvelope<OrderDto>> {
    return this.trading.listInvestorOrders(principal, investorId, query, listUrl(req));
  }

  @Get(':order_id')
  @ORDER_ID
  @ApiOperation({
    operationId: 'getOrder',
    summary: 'Retrieve an order',
    description:
      'The envelope view; GET /v1/trading/accounts/{account_id}/orders/{order_id} is the account-style record.',
  })
  @ApiOkResponse({ type: OrderDto })
  @ApiErrors('SVC-404-001')
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Param('order_id') orderId: string,
  ): Promise<OrderDto> {
    return this.trading.getInvestorOrder(principal, investorId, orderId);
  }

  @Post(':order_id/cancel')
  @HttpCode(200)
  @ORDER_ID
  @ApiOperation({
    operationId: 'cancelOrder',
    summary: 'Cancel an order',
    description:
      'Cancels what is not filled of an accepted or partially_filled order and releases its hold; emits ' +
      '`order.canceled`. Once the order has ended (filled, canceled, rejected): 409 SVC-409-001.',
  })
  @ApiOkResponse({ type: OrderDto })
  @ApiErrors('SVC-404-001', 'SVC-409-001')
  cancel(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Param('order_id') orderId: string,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<OrderDto> {
    return this.trading.cancel(principal, investorId, orderId, idem);
  }

  @Get(':order_id/executions')
  @ORDER_ID
  @ApiOperation({
    operationId: 'listOrderExecutions',
    summary: 'List the executions of an order',
    description:
      'Every fill, oldest first, with its price, amounts and price source (`simulated` or `override`).',
  })
  @ApiOkResponse({
    type: ListEnvelopeOf(
      ExecutionDto,
      '/v1/investors/inv_4Qm1bX9kLr2TzP0aVn7c8w/orders/ord_Xb4mT9qLc2Vn7Rz0Pk5WaE/executions',
    ),
  })
  @ApiErrors('SVC-404-001')
  executions(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Param('order_id') orderId: string,
    @Req() req: Request,
  ): Promise<ListEnvelope<ExecutionDto>> {
    return this.trading.executions(principal, investorId, orderId, listUrl(req));
  }
}
