import { Injectable } from '@nestjs/common';
import type { Principal } from 'src/core/auth/principal';
import { ServiceError } from 'src/core/errors/service-error';
import { AccountsService } from 'src/modules/accounts/accounts.service';
import type { ConversionDto, ConversionsQuery } from 'src/modules/fx/dto/fx.dto';
import { termsFromRow, termsText } from 'src/modules/fx/fx-terms';
import { FxConversionRow, FxRepository } from 'src/modules/fx/fx.repository';

/** Reads of an account's conversions (account-style records, bare arrays). */
@Injectable()
export class FxConversionsService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly repository: FxRepository,
  ) {}

  async list(principal: Principal, accountId: string, query: ConversionsQuery): Promise<ConversionDto[]> {
    const account = await this.accounts.findAccountForPrincipal(principal, accountId);
    const rows = await this.repository.listConversions(principal, account.id, {
      createdGte: instant(query.created_gte, 'created_gte'),
      createdLt: instant(query.created_lt, 'created_lt'),
      limit: query.limit ?? 50,
      offset: query.offset ?? 0,
    });
    return rows.map(conversionView);
  }

  async get(principal: Principal, accountId: string, conversionId: string): Promise<ConversionDto> {
    const account = await this.accounts.findAccountForPrincipal(principal, accountId);
    const row = await this.repository.findConversion(principal, account.id, conversionId);
    if (!row) {
      throw ServiceError.notFound('conversion', conversionId);
    }
    return conversionView(row);
  }
}

function instant(value: string | undefined, param: string): Date | undefined {
  if (value === undefined) {
    return undefined;
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    throw ServiceError.invalid(param, `${param} is not a valid date-time.`);
  }
  return date;
}

/** The account-style conversion record (docs/decisions.md, FX conversions). */
export function conversionView(row: FxConversionRow): ConversionDto {
  const { spread_amount: _spread, ...text } = termsText(termsFromRow(row));
  return {
    conversion_id: row.id,
    account_id: row.account_id,
    ...text,
    status: row.status,
    quote_id: row.quote_id,
    created_at: row.created_at.toISOString(),
  };
}
