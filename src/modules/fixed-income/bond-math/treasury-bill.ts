import Decimal from 'decimal.js';
import { ServiceError } from 'src/core/errors/service-error';
import { Money } from 'src/core/money/money';
import {
  parseDate,
  parseDecimal,
  parsePositive,
  requireBefore,
} from 'src/modules/fixed-income/bond-math/bond-input';
import { DateInput, DecimalInput } from 'src/modules/fixed-income/bond-math/bond-types';
import { CalendarDate, daysBetween, daysInMonth } from 'src/modules/markets/calendar/calendar-date';

/**
 * Discount securities (Treasury bills), per 100 face. Discount rates use a 360-day year. The
 * bond-equivalent ("investment rate", coupon-equivalent) yield follows 31 CFR 356 Appendix B: simple
 * interest over a 365/366-day year up to half a year, and for longer bills the quadratic that assumes one
 * semiannual reinvestment.
 */

export interface BillTerm {
  settlement: DateInput;
  maturity: DateInput;
  /** Days in the year used by bond-equivalent yields; default 366 when the year after settlement holds 29 February. */
  yearDays?: 365 | 366;
}

interface ResolvedTerm {
  days: number;
  yearDays: number;
}

function defaultYearDays(settlement: CalendarDate): number {
  const nextYear = { ...settlement, year: settlement.year + 1 };
  nextYear.day = Math.min(nextYear.day, daysInMonth(nextYear.year, nextYear.month));
  return daysBetween(settlement, nextYear);
}

function resolveTerm(term: BillTerm): ResolvedTerm {
  const settlement = parseDate(term.settlement, 'settlement');
  const maturity = parseDate(term.maturity, 'maturity');
  requireBefore(settlement, maturity, 'settlement', 'settlement must be before maturity.');
  const days = daysBetween(settlement, maturity);
  if (days > 366) {
    throw ServiceError.invalid('maturity', 'A bill matures no more than one year after settlement.');
  }
  if (term.yearDays !== undefined && term.yearDays !== 365 && term.yearDays !== 366) {
    throw ServiceError.invalid('yearDays', 'yearDays must be 365 or 366.');
  }
  return { days, yearDays: term.yearDays ?? defaultYearDays(settlement) };
}

/** Price from the bank discount rate: 100 * (1 - d * days / 360). */
export function billPriceFromDiscount(term: BillTerm & { discountRate: DecimalInput }): Decimal {
  const { days } = resolveTerm(term);
  const rate = parseDecimal(term.discountRate, 'discountRate');
  const price = new Money(1).minus(rate.times(days).div(360)).times(100);
  if (!price.isPositive() || price.isZero()) {
    throw ServiceError.invalid('discountRate', 'discountRate is too high for this term.');
  }
  return price;
}

/** Bank discount rate from price: (100 - P) / 100 * 360 / days. */
export function billDiscountFromPrice(term: BillTerm & { price: DecimalInput }): Decimal {
  const { days } = resolveTerm(term);
  const price = parsePositive(term.price, 'price');
  return new Money(100).minus(price).div(100).times(360).div(days);
}

/** Money-market yield on a 360-day year: (100 - P) / P * 360 / days (spreadsheet TBILLYIELD). */
export function billMoneyMarketYield(term: BillTerm & { price: DecimalInput }): Decimal {
  const { days } = resolveTerm(term);
  const price = parsePositive(term.price, 'price');
  return new Money(100).minus(price).div(price).times(360).div(days);
}

/** Bond-equivalent (investment) yield from price. */
export function billBondEquivalentYield(term: BillTerm & { price: DecimalInput }): Decimal {
  const { days, yearDays } = resolveTerm(term);
  const price = parsePositive(term.price, 'price');
  if (days * 2 <= yearDays) {
    return new Money(100).minus(price).div(price).times(yearDays).div(days);
  }
  // (2a - 1) r^2 + 4a r + 4 (1 - 100/P) = 0 with a = days / year: P (1 + r/2)(1 + (a - 1/2) r) = 100.
  const a = new Money(days).div(yearDays);
  const b = a.times(2).minus(1);
  const root = a
    .pow(2)
    .minus(b.times(new Money(1).minus(new Money(100).div(price))))
    .sqrt();
  return a.neg().times(2).plus(root.times(2)).div(b);
}

/** Price from the bond-equivalent (investment) yield; the inverse of billBondEquivalentYield. */
export function billPriceFromBondEquivalentYield(term: BillTerm & { yield: DecimalInput }): Decimal {
  const { days, yearDays } = resolveTerm(term);
  const rate = parseDecimal(term.yield, 'yield');
  const a = new Money(days).div(yearDays);
  const growth =
    days * 2 <= yearDays
      ? rate.times(a).plus(1)
      : rate
          .div(2)
          .plus(1)
          .times(rate.times(a.minus('0.5')).plus(1));
  if (!growth.isPositive() || growth.isZero()) {
    throw ServiceError.invalid('yield', 'yield is too low for this term.');
  }
  return new Money(100).div(growth);
}

/** Bond-equivalent yield straight from the discount rate (spreadsheet TBILLEQ when the year is 365 days). */
export function billBondEquivalentFromDiscount(term: BillTerm & { discountRate: DecimalInput }): Decimal {
  return billBondEquivalentYield({ ...term, price: billPriceFromDiscount(term) });
}
