import { unixSeconds } from 'src/core/http/envelope';
import { minorUnits } from 'src/core/money/currencies';
import { Money } from 'src/core/money/money';
import type { TierRow } from 'src/modules/cash-sweep/apr-tiers.repository';
import type { EnrollmentRow } from 'src/modules/cash-sweep/enrollments.repository';
import type { InterestRow, PayoutRow } from 'src/modules/cash-sweep/interest.repository';

/** Money in the currency's minor units, as text. */
export function cashText(value: string | number, currency: string): string {
  return new Money(value).toFixed(minorUnits(currency));
}

/** Accrued interest and fees keep 8 decimals. */
export function interestText(value: string | number): string {
  return new Money(value).toFixed(8);
}

export function aprTierView(tier: TierRow) {
  return {
    id: tier.id,
    object: 'apr_tier' as const,
    created: unixSeconds(tier.created_at),
    livemode: tier.livemode,
    metadata: tier.metadata ?? {},
    name: tier.name,
    currency: tier.currency,
    account_rate_bps: tier.account_rate_bps,
    correspondent_rate_bps: tier.correspondent_rate_bps,
    is_default: tier.is_default,
    status: tier.status,
  };
}

export function interestEntryView(row: InterestRow, livemode: boolean) {
  return {
    object: 'interest_history_entry' as const,
    livemode,
    date: row.date,
    account_id: row.account_id,
    apr_tier_name: row.apr_tier_name,
    apr_tier_id: row.apr_tier_id,
    currency: row.currency,
    cash_balance: cashText(row.cash_balance, row.currency),
    account_rate_bps: row.account_rate_bps,
    account_accrued_interest: interestText(row.account_accrued_interest),
    correspondent_rate_bps: row.correspondent_rate_bps,
    correspondent_fee: interestText(row.correspondent_fee),
  };
}

export function payoutView(row: PayoutRow, livemode: boolean) {
  return {
    id: row.id,
    object: 'interest_payout' as const,
    created: unixSeconds(row.paid_at),
    livemode,
    account_id: row.account_id,
    investor_id: row.investor_id,
    currency: row.currency,
    month: row.month,
    amount: cashText(row.amount, row.currency),
    accrued_interest: interestText(row.accrued_interest),
    correspondent_fee: interestText(row.correspondent_fee),
    days: row.days,
    paid_at: row.paid_at.toISOString(),
  };
}

export function enrollmentView(row: EnrollmentRow, tier: TierRow | null) {
  return {
    object: 'cash_sweep_enrollment' as const,
    livemode: row.livemode,
    account_id: row.account_id,
    investor_id: row.investor_id,
    currency: row.currency,
    status: row.status,
    apr_tier_id: tier?.id ?? null,
    apr_tier_name: tier?.name ?? null,
    account_rate_bps: tier?.account_rate_bps ?? null,
    correspondent_rate_bps: tier?.correspondent_rate_bps ?? null,
    accrual_start: row.accrual_start,
    updated: unixSeconds(row.updated_at),
  };
}

export type AprTierView = ReturnType<typeof aprTierView>;
export type InterestEntryView = ReturnType<typeof interestEntryView>;
export type PayoutView = ReturnType<typeof payoutView>;
export type EnrollmentView = ReturnType<typeof enrollmentView>;
