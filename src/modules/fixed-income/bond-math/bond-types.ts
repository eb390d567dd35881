import Decimal from 'decimal.js';

/**
 * Day-count conventions:
 * - ACT/ACT: ICMA, period based (actual days over actual days in the coupon period), as US Treasuries.
 * - ACT/360, ACT/365: actual days over a 360 or 365 day year.
 * - 30/360: US (NASD / SIA) rules, the spreadsheet basis 0.
 */
export type AccrualBasis = 'ACT/ACT' | 'ACT/360' | '30/360' | 'ACT/365';

export const ACCRUAL_BASES: readonly AccrualBasis[] = ['ACT/ACT', 'ACT/360', '30/360', 'ACT/365'];

/** Coupons per year; 0 = zero coupon. */
export type CouponFrequency = 0 | 1 | 2 | 4 | 12;

export const COUPON_FREQUENCIES: readonly CouponFrequency[] = [0, 1, 2, 4, 12];

/** 'YYYY-MM-DD', or a Date whose UTC calendar date is used. */
export type DateInput = string | Date;

/** Decimal text ('5.75'), number or Decimal; money never passes through floats inside the math. */
export type DecimalInput = Decimal.Value;

export interface CouponScheduleInput {
  maturity: DateInput;
  frequency: CouponFrequency;
  /** Date interest starts accruing (dated date); coupon dates on or before it do not exist. */
  issueDate?: DateInput;
  /** Alias of issueDate, as Treasury and municipal documents call it. */
  datedDate?: DateInput;
  /** First coupon payment; must fall on the regular schedule counted back from maturity. */
  firstCouponDate?: DateInput;
}

export interface BondInput extends CouponScheduleInput {
  settlement: DateInput;
  /** Annual coupon rate as a fraction: 0.0575 for 5.75%. */
  couponRate: DecimalInput;
  basis: AccrualBasis;
}

/**
 * Pricing follows the spreadsheet PRICE / YIELD conventions, which assume regular coupon periods, so
 * odd first coupons are out of scope there (accruedInterest handles them).
 */
export type RegularBondInput = Omit<BondInput, 'issueDate' | 'datedDate' | 'firstCouponDate'>;

/**
 * How the fraction of a period up to the next coupon is discounted when more than one coupon remains:
 * - street: compound, (1 + y/f)^(DSC/E), as the spreadsheet PRICE / YIELD functions;
 * - treasury: simple, 1 + DSC/E * y/f, as US Treasury auctions price notes and bonds (31 CFR 356 App. B).
 * Both use simple interest once one period or less remains.
 */
export type YieldConvention = 'street' | 'treasury';

export interface PriceFromYieldInput extends RegularBondInput {
  /** Annual yield as a fraction, compounded `frequency` times a year (twice for zero coupons). */
  yield: DecimalInput;
  /** Redemption value per 100 face; defaults to 100. */
  redemption?: DecimalInput;
  /** Defaults to 'street'. */
  convention?: YieldConvention;
}

export interface YieldFromPriceInput extends RegularBondInput {
  /** Clean price per 100 face. */
  price: DecimalInput;
  redemption?: DecimalInput;
  convention?: YieldConvention;
}
