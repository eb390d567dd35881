import Decimal from 'decimal.js';
import { minorUnits } from 'src/core/money/currencies';

/** Positions keep quantity and cost basis to 8 decimals. */
const POSITION_DP = 8;

export interface DividendAmounts {
  gross: Decimal;
  withholding: Decimal;
  net: Decimal;
}

/**
 * A cash dividend of one account: gross = quantity × cash_rate and withholding = gross ×
 * bps / 10,000 (investors whose tax residence is not the US), each rounded half-even to the
 * currency's minor unit; net = gross − withholding.
 */
export function dividendAmounts(
  quantity: Decimal.Value,
  cashRate: Decimal.Value,
  withholdingBps: number,
  withheld: boolean,
  currency: string,
): DividendAmounts {
  const dp = minorUnits(currency);
  const gross = new Decimal(quantity).times(cashRate).toDecimalPlaces(dp, Decimal.ROUND_HALF_EVEN);
  const withholding = withheld
    ? gross.times(withholdingBps).div(10_000).toDecimalPlaces(dp, Decimal.ROUND_HALF_EVEN)
    : new Decimal(0);
  return { gross, withholding, net: gross.minus(withholding) };
}

export interface SplitInput {
  quantity: Decimal.Value;
  totalCostBasis: Decimal.Value;
  oldRate: Decimal.Value;
  newRate: Decimal.Value;
  fractionable: boolean;
  /** The previous close before the ex date (pre-split price), for cash in lieu. */
  previousClose: Decimal.Value;
  currency: string;
}

export interface SplitOutcome {
  quantityAfter: Decimal;
  costBasisAfter: Decimal;
  /** The fraction of a share paid in cash (non-fractionable assets, 8 decimals), else zero. */
  fraction: Decimal;
  /** The price per unit (after the ratio) the fraction is paid at, 8 decimals. */
  fractionPrice: Decimal;
  cashInLieu: Decimal;
  /** Cost basis of the fraction sold for cash in lieu. */
  fractionBasis: Decimal;
}

/**
 * A split, reverse split or stock dividend of one position: quantity × new_rate / old_rate with
 * the total cost basis kept. A non-fractionable asset keeps whole shares and the fraction is paid
 * at previous close × old_rate / new_rate (half-even to the minor unit), taking its share of the
 * basis with it; a fractionable asset keeps the fraction (to 8 decimals).
 * The fraction and its price have 8 decimals, as the CIL activity shows them, so the activity's
 * quantity × price is what was paid and its quantity over the units after the ratio is the share
 * of the basis it took.
 */
export function splitOutcome(input: SplitInput): SplitOutcome {
  const adjustedClose = new Decimal(input.previousClose).times(input.oldRate).div(input.newRate);
  return convert(input, adjustedClose);
}

export interface StockMergerInput {
  quantity: Decimal.Value;
  totalCostBasis: Decimal.Value;
  oldRate: Decimal.Value;
  newRate: Decimal.Value;
  /** Cash per target share besides the acquirer's shares, or null. */
  cashRate: Decimal.Value | null;
  /** Whether the acquirer is fractionable. */
  fractionable: boolean;
  /** The acquirer's previous close before the ex date (a fraction's cash in lieu). */
  acquirerPreviousClose: Decimal.Value;
  currency: string;
}

export interface StockMergerOutcome extends SplitOutcome {
  /** cash_rate × quantity, half-even to the minor unit (zero without a cash part). */
  cash: Decimal;
}

/**
 * A stock merger of one position: quantity × new_rate / old_rate shares of the acquirer carrying
 * the position's total cost basis, plus cash_rate × quantity in cash. A non-fractionable acquirer
 * gives whole shares, the fraction paid at the acquirer's previous close and taking its share of
 * the basis (as a split's cash in lieu).
 */
export function stockMergerOutcome(input: StockMergerInput): StockMergerOutcome {
  const shares = convert(
    { ...input, previousClose: input.acquirerPreviousClose },
    new Decimal(input.acquirerPreviousClose),
  );
  const cash =
    input.cashRate === null
      ? new Decimal(0)
      : new Decimal(input.quantity)
          .times(input.cashRate)
          .toDecimalPlaces(minorUnits(input.currency), Decimal.ROUND_HALF_EVEN);
  return { ...shares, cash };
}

export interface CashMergerOutcome {
  /** quantity × cash_rate, half-even to the minor unit. */
  cash: Decimal;
  /** cash − the position's total cost basis. */
  realizedGainLoss: Decimal;
}

/** A cash merger of one position: closed at cash_rate per share, realizing cash − cost basis. */
export function cashMergerOutcome(input: {
  quantity: Decimal.Value;
  totalCostBasis: Decimal.Value;
  cashRate: Decimal.Value;
  currency: string;
}): CashMergerOutcome {
  const cash = new Decimal(input.quantity)
    .times(input.cashRate)
    .toDecimalPlaces(minorUnits(input.currency), Decimal.ROUND_HALF_EVEN);
  return { cash, realizedGainLoss: cash.minus(input.totalCostBasis) };
}

/** quantity × new_rate / old_rate with the basis kept; a non-fractionable fraction sold at `fractionPrice`. */
function convert(input: SplitInput, fractionPrice: Decimal): SplitOutcome {
  const raw = new Decimal(input.quantity).times(input.newRate).div(input.oldRate);
  const basis = new Decimal(input.totalCostBasis);
  const whole = raw.floor();
  const nothingSold = {
    fraction: new Decimal(0),
    fractionPrice: new Decimal(0),
    cashInLieu: new Decimal(0),
    fractionBasis: new Decimal(0),
  };
  if (input.fractionable) {
    return {
      quantityAfter: raw.toDecimalPlaces(POSITION_DP, Decimal.ROUND_DOWN),
      costBasisAfter: basis,
      ...nothingSold,
    };
  }
  if (raw.eq(whole)) {
    return { quantityAfter: whole, costBasisAfter: basis, ...nothingSold };
  }
  // The units after the ratio as a position keeps them (8 decimals): whole shares and the fraction sold.
  const units = raw.toDecimalPlaces(POSITION_DP, Decimal.ROUND_DOWN);
  const fraction = units.minus(whole);
  const price = fractionPrice.toDecimalPlaces(POSITION_DP, Decimal.ROUND_HALF_EVEN);
  const cashInLieu = fraction
    .times(price)
    .toDecimalPlaces(minorUnits(input.currency), Decimal.ROUND_HALF_EVEN);
  const fractionBasis = whole.isZero()
    ? basis
    : basis.times(fraction).div(units).toDecimalPlaces(POSITION_DP, Decimal.ROUND_HALF_EVEN);
  return {
    quantityAfter: whole,
    costBasisAfter: basis.minus(fractionBasis),
    fraction,
    fractionPrice: price,
    cashInLieu,
    fractionBasis,
  };
}
