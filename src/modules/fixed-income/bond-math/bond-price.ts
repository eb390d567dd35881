import Decimal from 'decimal.js';
import { ServiceError } from 'src/core/errors/service-error';
import { Money } from 'src/core/money/money';
import { accruedInterest } from 'src/modules/fixed-income/bond-math/accrued-interest';
import {
  parseBasis,
  parseDecimal,
  parseNonNegative,
  parsePositive,
} from 'src/modules/fixed-income/bond-math/bond-input';
import {
  DecimalInput,
  PriceFromYieldInput,
  RegularBondInput,
  YieldConvention,
  YieldFromPriceInput,
} from 'src/modules/fixed-income/bond-math/bond-types';
import {
  quasiPeriodContaining,
  resolveSchedule,
  resolveSettlement,
} from 'src/modules/fixed-income/bond-math/coupon-schedule';
import { accrualDays, periodLength } from 'src/modules/fixed-income/bond-math/day-count';
import { daysBetween } from 'src/modules/markets/calendar/calendar-date';

/**
 * Street-convention bond pricing, the formulas of the spreadsheet PRICE and YIELD functions:
 *
 *   N > 1:  clean = R / g^(N-1+DSC/E) + sum(k=1..N) C / g^(k-1+DSC/E) - C * A/E,   g = 1 + y/f
 *   N <= 1: clean = (R + C) / (1 + DSC/E * y/f) - C * A/E     (simple interest in the final period)
 *
 * N coupons remain, C = 100 * rate / f, A = accrual days from the previous coupon, E = days in the
 * coupon period and DSC = days from settlement to the next coupon. Under 30/360, DSC is E - A as the
 * spreadsheet functions count it. Zero coupons compound semiannually over quasi-coupon periods.
 *
 * The 'treasury' convention discounts the fraction DSC/E with simple interest instead, dividing the
 * value at the next coupon by (1 + DSC/E * y/f): the formula Treasury auction prices come from.
 */

interface PricingTerms {
  periodsRemaining: number;
  /** DSC / E */
  firstFraction: Decimal;
  /** A / E */
  accruedFraction: Decimal;
  coupon: Decimal;
  redemption: Decimal;
  periodsPerYear: number;
  convention: YieldConvention;
}

// Target for the solver: well inside the 1e-10 contract so rounding the yield cannot break it.
const SOLVER_TOLERANCE = new Money('1e-30');
const CONTRACT_TOLERANCE = new Money('1e-10');
const MAX_ITERATIONS = 200;
const YIELD_DECIMALS = 18;
const MAX_YIELD = new Money(100);

type PricingInput = RegularBondInput & { redemption?: DecimalInput; convention?: YieldConvention };

function parseConvention(value: unknown): YieldConvention {
  if (value === undefined) {
    return 'street';
  }
  if (value !== 'street' && value !== 'treasury') {
    throw ServiceError.invalid('convention', "convention must be 'street' or 'treasury'.");
  }
  return value;
}

function pricingTerms(input: PricingInput): PricingTerms {
  const convention = parseConvention(input.convention);
  const basis = parseBasis(input.basis);
  const rate = parseNonNegative(input.couponRate, 'couponRate');
  const schedule = resolveSchedule({ maturity: input.maturity, frequency: input.frequency });
  const settlement = resolveSettlement(schedule, input.settlement);
  const period = quasiPeriodContaining(schedule, settlement);
  const length = periodLength(basis, period.start, period.end, schedule.periodsPerYear);
  const accrued = new Money(accrualDays(basis, period.start, settlement));
  const toNext = basis === '30/360' ? length.minus(accrued) : new Money(daysBetween(settlement, period.end));
  return {
    periodsRemaining: period.endIndex + 1,
    firstFraction: toNext.div(length),
    accruedFraction: accrued.div(length),
    coupon: schedule.frequency === 0 ? new Money(0) : rate.times(100).div(schedule.periodsPerYear),
    redemption:
      input.redemption === undefined ? new Money(100) : parsePositive(input.redemption, 'redemption'),
    periodsPerYear: schedule.periodsPerYear,
    convention,
  };
}

/** Clean price and its derivative with respect to the yield. */
function evaluate(terms: PricingTerms, yieldRate: Decimal): { price: Decimal; slope: Decimal } {
  const { coupon, redemption, firstFraction, periodsPerYear: f } = terms;
  const accrued = coupon.times(terms.accruedFraction);
  if (terms.periodsRemaining <= 1) {
    const denominator = firstFraction.times(yieldRate).div(f).plus(1);
    const cash = redemption.plus(coupon);
    return {
      price: cash.div(denominator).minus(accrued),
      slope: cash.times(firstFraction).div(f).div(denominator.pow(2)).neg(),
    };
  }
  const discount = new Money(1).div(yieldRate.div(f).plus(1));
  // Street: every flow discounted by discount^(DSC/E + k). Treasury: discount^k, then the whole value at
  // the next coupon divided by the simple-interest factor for DSC/E.
  const street = terms.convention === 'street';
  const offset = street ? firstFraction : new Money(0);
  let factor = street ? discount.pow(firstFraction) : new Money(1);
  let value = new Money(0);
  let slope = new Money(0);
  for (let k = 0; k < terms.periodsRemaining; k++) {
    const cash = k === terms.periodsRemaining - 1 ? coupon.plus(redemption) : coupon;
    value = value.plus(cash.times(factor));
    slope = slope.minus(cash.times(offset.plus(k)).times(factor).times(discount).div(f));
    factor = factor.times(discount);
  }
  if (street) {
    return { price: value.minus(accrued), slope };
  }
  const simple = firstFraction.times(yieldRate).div(f).plus(1);
  const simpleSlope = firstFraction.div(f);
  return {
    price: value.div(simple).minus(accrued),
    slope: slope.times(simple).minus(value.times(simpleSlope)).div(simple.pow(2)),
  };
}

/**
 * Yields at or below this make a discount factor meaningless: 1 + y/f must stay positive, and so must
 * 1 + DSC/E * y/f, where DSC/E can exceed 1 under ACT/360 (a 181-day period over a 180-day E).
 */
function yieldFloor(terms: PricingTerms): Decimal {
  return new Money(-terms.periodsPerYear).div(Decimal.max(1, terms.firstFraction));
}

/** Clean price per 100 face. */
export function priceFromYield(input: PriceFromYieldInput): Decimal {
  const terms = pricingTerms(input);
  const yieldRate = parseDecimal(input.yield, 'yield');
  const floor = yieldFloor(terms);
  if (yieldRate.lte(floor)) {
    throw ServiceError.invalid(
      'yield',
      `yield must be greater than ${floor.toSignificantDigits(6).toString()}.`,
    );
  }
  return evaluate(terms, yieldRate).price;
}

/** Dirty (invoice) price per 100 face: clean price plus accrued interest. */
export function dirtyPrice(input: PriceFromYieldInput): Decimal {
  return priceFromYield(input).plus(accruedInterest(input));
}

/**
 * The yield that reproduces a clean price, by Newton's method kept inside a shrinking bracket (bisection
 * whenever a Newton step would leave it). Price falls as yield rises, so the bracket always holds the root.
 */
export function yieldFromPrice(input: YieldFromPriceInput): Decimal {
  const terms = pricingTerms(input);
  const target = parsePositive(input.price, 'price');
  let low = yieldFloor(terms).times('0.999999');
  let high = MAX_YIELD;
  if (evaluate(terms, low).price.lt(target) || evaluate(terms, high).price.gt(target)) {
    throw ServiceError.invalid('price', 'No yield between -100% and 10000% gives this price.');
  }
  let guess = parseNonNegative(input.couponRate, 'couponRate');
  for (let i = 0; i < MAX_ITERATIONS; i++) {
    const { price, slope } = evaluate(terms, guess);
    const error = price.minus(target);
    if (error.abs().lt(SOLVER_TOLERANCE)) {
      break;
    }
    if (error.isPositive()) {
      low = guess;
    } else {
      high = guess;
    }
    let next = slope.isZero() ? low.plus(high).div(2) : guess.minus(error.div(slope));
    if (next.lte(low) || next.gte(high)) {
      next = low.plus(high).div(2);
    }
    if (next.eq(guess)) {
      break;
    }
    guess = next;
  }
  const solved = guess.toDecimalPlaces(YIELD_DECIMALS);
  if (evaluate(terms, solved).price.minus(target).abs().gte(CONTRACT_TOLERANCE)) {
    throw new Error('Yield solver did not converge.');
  }
  return solved;
}
