import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Matches, Max, Min, ValidateNested } from 'class-validator';
import { assertFixedIncomeEnabled } from 'src/core/auth/access.guard';
import { CurrentPrincipal, RequiresProduct, TenantLevel, TestModeOnly } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ServiceError } from 'src/core/errors/service-error';
import { newId } from 'src/core/ids/ids';
import { EventsService } from 'src/core/events/events.service';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';

class ProbeAddress {
  @IsString()
  city: string;

  @Matches(/^[A-Z]{2}$/)
  country: string;
}

class ProbeThing {
  @IsString()
  @Length(1, 50)
  name: string;

  @IsOptional()
  @Matches(/^\d+(\.\d+)?$/)
  amount?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => ProbeAddress)
  address?: ProbeAddress;
}

class ProbeQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(2000)
  delay_ms?: number;

  @IsOptional()
  @IsString()
  fail?: string;
}

/** Test-only routes that exercise the shared machinery; never part of the real app. */
@Controller('probe')
export class ProbeController {
  constructor(
    private readonly transactions: IdempotentTransaction,
    private readonly events: EventsService,
  ) {}

  /** An effect (an event row) committed with its idempotent response, optionally slow or failing. */
  @Post('effects')
  @HttpCode(201)
  effect(
    @Body() body: ProbeThing,
    @Query() query: ProbeQuery,
    @CurrentPrincipal() p: Principal,
    @Idempotency() idempotency: IdempotentRequest | undefined,
  ) {
    return this.transactions.run(idempotency, async (manager) => {
      const event = await this.events.emit(manager, {
        tenantId: p.tenantId,
        livemode: p.livemode,
        event: 'account.updated',
        data: { probe: body.name },
      });
      if (query.delay_ms) {
        await new Promise((resolve) => setTimeout(resolve, query.delay_ms));
      }
      if (query.fail === 'after_effect') {
        throw ServiceError.refused('Refused after the effect was written.');
      }
      return { id: event.id, object: 'effect', livemode: p.livemode, name: body.name };
    });
  }

  @Get('whoami')
  whoami(@CurrentPrincipal() p: Principal, @Query() _query: ProbeQuery) {
    return {
      object: 'principal',
      livemode: p.livemode,
      tenant_id: p.tenantId,
      investor_id: p.investorId,
      method: p.method,
    };
  }

  @Get('market-data')
  @RequiresProduct('market_data')
  marketData() {
    return { object: 'probe', livemode: false };
  }

  @Get('tenant-level')
  @TenantLevel()
  tenantLevel() {
    return { object: 'probe', livemode: false };
  }

  @Get('test-only')
  @TestModeOnly()
  testOnly() {
    return { object: 'probe', livemode: false };
  }

  @Get('fixed-income')
  fixedIncome(@CurrentPrincipal() p: Principal) {
    assertFixedIncomeEnabled(p);
    return { object: 'probe', livemode: p.livemode };
  }

  @Post('things')
  @HttpCode(201)
  async create(@Body() body: ProbeThing, @Query() query: ProbeQuery, @CurrentPrincipal() p: Principal) {
    if (query.delay_ms) {
      await new Promise((resolve) => setTimeout(resolve, query.delay_ms));
    }
    return { id: newId('order'), object: 'thing', livemode: p.livemode, name: body.name };
  }

  @Get('fail')
  fail(@Query('kind') kind: string) {
    const kinds = ['conflict', 'refused', 'crash', 'unavailable'];
    if (!kinds.includes(kind)) {
      throw ServiceError.invalid('kind', `kind must be one of ${kinds.join(', ')}`);
    }
    switch (kind) {
      case 'conflict':
        throw ServiceError.conflict('Order ord_x is already filled and cannot be canceled.');
      case 'refused':
        throw ServiceError.refused('Insufficient buying power.', 'qty');
      case 'unavailable':
        throw new ServiceError('SVC-503-001');
      default:
        throw new Error(
          'duplicate key value violates unique constraint "secret_table_pkey" at /srv/app.js:12',
        );
    }
  }
}
