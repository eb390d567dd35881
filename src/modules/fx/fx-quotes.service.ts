import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import { toResource } from 'src/core/http/envelope';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { newId } from 'src/core/ids/ids';
import type { CreateFxQuoteDto, FxQuoteDto } from 'src/modules/fx/dto/fx.dto';
import { FxRatesService, fxPair } from 'src/modules/fx/fx-rates.service';
import { FxSettingsService } from 'src/modules/fx/fx-settings.service';
import { fxTerms, termsFromRow, termsText } from 'src/modules/fx/fx-terms';
import { FxQuoteRow, FxRepository } from 'src/modules/fx/fx.repository';

/** How long a quote holds, on the clock. */
export const QUOTE_TTL_MS = 30_000;

/** POST /fx/quotes: a rate and both amounts, held for 30 seconds of the clock. */
@Injectable()
export class FxQuotesService {
  constructor(
    private readonly rates: FxRatesService,
    private readonly settings: FxSettingsService,
    private readonly repository: FxRepository,
    private readonly clock: ClockService,
    private readonly transactions: IdempotentTransaction,
  ) {}

  create(
    principal: Principal,
    dto: CreateFxQuoteDto,
    idem: IdempotentRequest | undefined,
  ): Promise<FxQuoteDto> {
    return this.transactions.run(idem, (manager) => this.quote(manager, principal, dto));
  }

  private async quote(
    manager: EntityManager,
    principal: Principal,
    dto: CreateFxQuoteDto,
  ): Promise<FxQuoteDto> {
    const pair = fxPair(dto.from_currency, dto.to_currency);
    const now = await this.clock.now(principal, manager);
    const terms = fxTerms(
      pair,
      dto,
      await this.rates.mid(principal, pair, now, manager),
      await this.settings.spreadBps(principal.tenantId, manager),
    );
    const text = termsText(terms);
    const row: FxQuoteRow = {
      id: newId('fxQuote'),
      tenant_id: principal.tenantId,
      livemode: principal.livemode,
      ...text,
      expires_at: new Date(now.getTime() + QUOTE_TTL_MS),
      used_at: null,
      created_at: now,
    };
    await this.repository.insertQuote(manager, row);
    return fxQuoteView(row);
  }
}

export function fxQuoteView(row: FxQuoteRow): FxQuoteDto {
  const { spread_amount: _spread, ...text } = termsText(termsFromRow(row));
  return toResource('fx_quote', row, { ...text, expires_at: row.expires_at.toISOString() });
}
