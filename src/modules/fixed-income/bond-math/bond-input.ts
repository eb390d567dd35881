import Decimal from 'decimal.js';
import { ServiceError } from 'src/core/errors/service-error';
import { Money } from 'src/core/money/money';
import {
  ACCRUAL_BASES,
  AccrualBasis,
  COUPON_FREQUENCIES,
  CouponFrequency,
  DateInput,
  DecimalInput,
} from 'src/modules/fixed-income/bond-math/bond-types';
import {
  CalendarDate,
  formatCalendarDate,
  parseCalendarDate,
} from 'src/modules/markets/calendar/calendar-date';

/** Input parsing shared by the bond functions; every failure names the offending field. */

export function parseDate(value: DateInput, param: string): CalendarDate {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) {
      throw ServiceError.invalid(param, `${param} is not a valid date.`);
    }
    return parseCalendarDate(value.toISOString().slice(0, 10), param);
  }
  return parseCalendarDate(value, param);
}

export function parseOptionalDate(value: DateInput | undefined, param: string): CalendarDate | undefined {
  return value === undefined || value === null ? undefined : parseDate(value, param);
}

export function parseDecimal(value: DecimalInput, param: string): Decimal {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    throw ServiceError.missing(param);
  }
  let parsed: Decimal;
  try {
    parsed = new Money(value);
  } catch {
    throw ServiceError.invalid(param, `${param} must be a decimal number.`);
  }
  if (!parsed.isFinite()) {
    throw ServiceError.invalid(param, `${param} must be a finite decimal number.`);
  }
  return parsed;
}

export function parseNonNegative(value: DecimalInput, param: string): Decimal {
  const parsed = parseDecimal(value, param);
  if (parsed.isNegative()) {
    throw ServiceError.invalid(param, `${param} must not be negative.`);
  }
  return parsed;
}

export function parsePositive(value: DecimalInput, param: string): Decimal {
  const parsed = parseDecimal(value, param);
  if (!parsed.isPositive() || parsed.isZero()) {
    throw ServiceError.invalid(param, `${param} must be greater than zero.`);
  }
  return parsed;
}

export function parseFrequency(value: unknown): CouponFrequency {
  if (!COUPON_FREQUENCIES.includes(value as CouponFrequency)) {
    throw ServiceError.invalid('frequency', `frequency must be one of ${COUPON_FREQUENCIES.join(', ')}.`);
  }
  return value as CouponFrequency;
}

export function parseBasis(value: unknown): AccrualBasis {
  if (!ACCRUAL_BASES.includes(value as AccrualBasis)) {
    throw ServiceError.invalid('basis', `basis must be one of ${ACCRUAL_BASES.join(', ')}.`);
  }
  return value as AccrualBasis;
}

export function requireBefore(
  earlier: CalendarDate,
  later: CalendarDate,
  param: string,
  message: string,
): void {
  if (formatCalendarDate(earlier) >= formatCalendarDate(later)) {
    throw ServiceError.invalid(param, message);
  }
}
