import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import { EventsService } from 'src/core/events/events.service';
import { ServiceError } from 'src/core/errors/service-error';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { newId } from 'src/core/ids/ids';
import { assertAccountActive, AccountsService } from 'src/modules/accounts/accounts.service';
import type { ConversionDto, CreateConversionDto } from 'src/modules/fx/dto/fx.dto';
import { conversionView } from 'src/modules/fx/fx-conversions.service';
import { FxRatesService, fxPair } from 'src/modules/fx/fx-rates.service';
import { FxQuoteNotFoundError, FxQuoteUnusableError } from 'src/modules/fx/fx-errors';
import { FxSettingsService } from 'src/modules/fx/fx-settings.service';
import { FxTerms, fxTerms, termsFromRow, termsText } from 'src/modules/fx/fx-terms';
import { withoutNulls } from 'src/core/http/without-nulls';
import { FxConversionRow, FxRepository } from 'src/modules/fx/fx.repository';
import { conversionJournal } from 'src/modules/fx/fx-ledger';
import { LedgerService } from 'src/modules/ledger/ledger.service';
import { ActivitiesService } from 'src/modules/activities/activities.service';
import { conversionActivities } from 'src/modules/fx/fx-activities';

const QUOTE_FIELDS = ['from_currency', 'to_currency', 'amount', 'to_amount'] as const;

/**
 * A conversion between two cash wallets of one account, one transaction: the account (404 outside
 * the caller's scope; ACTIVE or 422-001), the terms (a quote taken once, or the current rate), one
 * ledger journal with both legs through the FX clearing accounts and the spread to the tenant
 * (more than the available cash of from_currency: 422-002 naming `amount`), the conversion row,
 * `conversion.completed` and the stored idempotent response.
 *
 * Its two FXC activities are recorded in the same transaction.
 */
@Injectable()
export class ConvertCurrency {
  constructor(
    private readonly transactions: IdempotentTransaction,
    private readonly accounts: AccountsService,
    private readonly rates: FxRatesService,
    private readonly settings: FxSettingsService,
    private readonly repository: FxRepository,
    private readonly ledger: LedgerService,
    private readonly events: EventsService,
    private readonly clock: ClockService,
    private readonly activities: ActivitiesService,
  ) {}

  execute(
    principal: Principal,
    accountId: string,
    sent: CreateConversionDto,
    idem: IdempotentRequest | undefined,
  ): Promise<ConversionDto> {
    const dto = withoutNulls(sent);
    return this.transactions.run(idem, async (manager, batch) => {
      const account = await this.accounts.findAccountForPrincipal(principal, accountId, manager, {
        lock: 'share',
      });
      const now = await this.clock.now(principal, manager);
      const terms = await this.terms(manager, principal, dto, now);
      assertAccountActive(account, 'account_id');
      const conversionId = newId('conversion');
      const journal = await this.ledger.post(
        manager,
        conversionJournal(principal, account.id, conversionId, terms, now),
        { insufficientFundsParam: 'amount' },
      );
      const row: FxConversionRow = {
        id: conversionId,
        tenant_id: principal.tenantId,
        livemode: principal.livemode,
        account_id: account.id,
        investor_id: account.investor_id ?? null,
        ...termsText(terms),
        status: 'executed',
        quote_id: dto.quote_id ?? null,
        ledger_journal_id: journal.id,
        created_at: now,
      };
      this.repository.insertConversionInto(batch, row);
      await this.activities.record(
        manager,
        principal,
        conversionActivities(account.id, conversionId, terms, now),
      );
      const view = conversionView(row);
      this.events.emitInto(batch, {
        tenantId: principal.tenantId,
        livemode: principal.livemode,
        event: 'conversion.completed',
        data: { ...view, investor_id: row.investor_id },
      });
      return view;
    });
  }

  /** From the quote (taken for this conversion only) or at the clock's current rate. */
  private async terms(
    manager: EntityManager,
    principal: Principal,
    dto: CreateConversionDto,
    now: Date,
  ): Promise<FxTerms> {
    if (dto.quote_id === undefined) {
      const pair = fxPair(dto.from_currency, dto.to_currency);
      const mid = await this.rates.mid(principal, pair, now, manager);
      return fxTerms(pair, dto, mid, await this.settings.spreadBps(principal.tenantId, manager));
    }
    const extra = QUOTE_FIELDS.find((field) => dto[field] !== undefined);
    if (extra) {
      throw ServiceError.invalid(
        extra,
        `${extra} comes from the quote: send quote_id alone, or no quote_id.`,
      );
    }
    const quote = await this.repository.useQuote(manager, principal, dto.quote_id, now);
    if (quote === undefined) {
      throw new FxQuoteNotFoundError(dto.quote_id);
    }
    if (quote === null) {
      throw new FxQuoteUnusableError(dto.quote_id);
    }
    return termsFromRow(quote);
  }
}
