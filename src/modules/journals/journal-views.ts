import { minorUnits } from 'src/core/money/currencies';
import { Money } from 'src/core/money/money';
import { toResource } from 'src/core/http/envelope';
import type { JournalDto } from 'src/modules/journals/dto/journal.dto';
import type { JournalRow } from 'src/modules/journals/journals.repository';

/** The journal as partners see it (envelope style). */
export function journalView(row: JournalRow): JournalDto {
  return toResource('journal', row, {
    entry_type: row.entry_type,
    from_account_id: row.from_account_id,
    to_account_id: row.to_account_id,
    amount:
      row.amount !== null && row.currency !== null
        ? new Money(row.amount).toFixed(minorUnits(row.currency))
        : null,
    currency: row.currency,
    symbol: row.symbol,
    quantity: row.quantity !== null ? new Money(row.quantity).toFixed() : null,
    description: row.description,
    status: row.status,
    reject_reason: row.reject_reason,
  }) as JournalDto;
}

/** The business date of a clock instant in New York (the day journal limits count). */
export function businessDate(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/New_York',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}
