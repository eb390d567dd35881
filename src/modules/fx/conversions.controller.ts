import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import {
  Idempotency,
  IdempotencyInTransaction,
  IdempotentRequest,
} from 'src/core/idempotency/idempotent-request';
import { ConversionDto, ConversionsQuery, CreateConversionDto } from 'src/modules/fx/dto/fx.dto';
import { FX_RULES } from 'src/modules/fx/fx.controller';
import { FxConversionsService } from 'src/modules/fx/fx-conversions.service';
import { ConvertCurrency } from 'src/modules/fx/use-cases/convert-currency.use-case';
import { ReadsMayLag } from 'src/core/database/replicas/read-context';

@ApiTags('Wallet')
@Controller('wallet/accounts/:account_id/conversions')
@ApiParam({ name: 'account_id', format: 'uuid', example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b' })
export class ConversionsController {
  constructor(
    private readonly convert: ConvertCurrency,
    private readonly conversions: FxConversionsService,
  ) {}

  @Post()
  @IdempotencyInTransaction()
  @ApiOperation({
    operationId: 'createConversion',
    summary: 'Convert between an account\u2019s currency wallets',
    description:
      'Books a quote (`quote_id` alone) or converts at the current rate (`from_currency`, `to_currency` and ' +
      `one of \`amount\` or \`to_amount\`), at once: status \`executed\`. ${FX_RULES} One ledger journal moves both ` +
      'legs and the spread (the partner\u2019s revenue, in to_currency); balances show it at once. Emits ' +
      '`conversion.completed`. Refusals: a quote expired or used: 422 SVC-422-007 naming `quote_id`; more than ' +
      'the available cash of from_currency: 422 SVC-422-002 naming `amount`; the account not ACTIVE: 422 ' +
      'SVC-422-001.',
  })
  @ApiCreatedResponse({ type: ConversionDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002', 'SVC-404-001', 'SVC-422-001', 'SVC-422-002', 'SVC-422-007')
  create(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Body() body: CreateConversionDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<ConversionDto> {
    return this.convert.execute(principal, accountId, body, idem);
  }

  @Get()
  @ReadsMayLag()
  @ApiOperation({
    operationId: 'listConversions',
    summary: 'List an account\u2019s conversions',
    description:
      'A bare array, newest first (by `created_at`, clock time), like the transactions list: `limit` 1 to 100 ' +
      '(default 50), `offset`, `created_gte`, `created_lt`.',
  })
  @ApiOkResponse({ type: [ConversionDto] })
  @ApiErrors('SVC-400-001', 'SVC-404-001')
  list(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Query() query: ConversionsQuery,
  ): Promise<ConversionDto[]> {
    return this.conversions.list(principal, accountId, query);
  }

  @Get(':conversion_id')
  @ApiParam({ name: 'conversion_id', example: 'cnv_8Wm2cQx4Lr7Tb1Nv5Zk9Pa' })
  @ApiOperation({
    operationId: 'getConversion',
    summary: 'Retrieve a conversion',
    description: 'One conversion of the account (another account\u2019s, or an unknown id: 404).',
  })
  @ApiOkResponse({ type: ConversionDto })
  @ApiErrors('SVC-404-001')
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('account_id') accountId: string,
    @Param('conversion_id') conversionId: string,
  ): Promise<ConversionDto> {
    return this.conversions.get(principal, accountId, conversionId);
  }
}
