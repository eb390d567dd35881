import { Body, Controller, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, TenantLevel } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import {
  Idempotency,
  IdempotencyInTransaction,
  IdempotentRequest,
} from 'src/core/idempotency/idempotent-request';
import { OrderDto } from 'src/modules/trading/dto/order.dto';
import { PlaceOrderDto } from 'src/modules/trading/dto/place-order.dto';
import { PlaceOrder } from 'src/modules/trading/use-cases/place-order.use-case';

/** Orders of the tenant's firm account (tenant-level keys only). */
@ApiTags('Firm account')
@TenantLevel()
@Controller('firm-account/orders')
export class FirmOrdersController {
  constructor(private readonly place: PlaceOrder) {}

  @Post()
  @IdempotencyInTransaction()
  @ApiOperation({
    operationId: 'placeFirmOrder',
    summary: 'Place an order for the firm account',
    description:
      'The investor order body and rules, for the tenant\u2019s firm account (for share rewards: buy, then JNLS to ' +
      'investors). The order\u2019s `investor_id` is null; read it and its positions through ' +
      '/v1/trading/accounts/{account_id}/... with the firm account\u2019s `account_id`. Tenant-level keys only ' +
      '(investor keys: 403 SVC-403-001).',
  })
  @ApiCreatedResponse({ type: OrderDto })
  @ApiErrors(
    'SVC-400-001',
    'SVC-400-002',
    'SVC-403-002',
    'SVC-422-001',
    'SVC-422-002',
    'SVC-422-003',
    'SVC-422-004',
    'SVC-422-005',
    'SVC-422-006',
  )
  create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: PlaceOrderDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<OrderDto> {
    return this.place.executeForFirm(principal, body, idem);
  }
}
