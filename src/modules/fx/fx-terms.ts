import Decimal from 'decimal.js';
import { ServiceError } from 'src/core/errors/service-error';
import { withoutNulls } from 'src/core/http/without-nulls';
import { minorUnits } from 'src/core/money/currencies';
import { Money } from 'src/core/money/money';
import { customerRate, fxAmounts, FxAmounts } from 'src/modules/fx/fx-math';
import type { FxPair } from 'src/modules/fx/fx-rates.service';

/** What a quote or a conversion at the current rate asks for: exactly one of the two amounts. */
export interface FxAsk {
  amount?: string;
  to_amount?: string;
}

/** The terms of one conversion, as a quote offers them and a conversion books them. */
export interface FxTerms extends FxAmounts {
  pair: FxPair;
  midRate: Decimal;
  rate: Decimal;
  spreadBps: number;
}

/**
 * Checks the ask (both amounts or neither: 400 naming `to_amount`; an amount above zero with at
 * most its currency's minor units: 400 naming it) and prices it at `midRate` with the spread.
 */
export function fxTerms(pair: FxPair, sent: FxAsk, midRate: Decimal, spreadBps: number): FxTerms {
  const ask = withoutNulls(sent);
  if ((ask.amount === undefined) === (ask.to_amount === undefined)) {
    throw ServiceError.invalid('to_amount', 'Send exactly one of amount (to sell) or to_amount (to buy).');
  }
  const amount = ask.amount !== undefined ? checked(ask.amount, pair.from, 'amount') : undefined;
  const toAmount = ask.to_amount !== undefined ? checked(ask.to_amount, pair.to, 'to_amount') : undefined;
  const rate = customerRate(midRate, spreadBps);
  const amounts = fxAmounts({
    fromCurrency: pair.from,
    toCurrency: pair.to,
    midRate,
    rate,
    amount,
    toAmount,
  });
  if (amounts.toAmount.lte(0)) {
    throw ServiceError.invalid(
      'amount',
      `amount is too small: at ${rate.toFixed()} it buys less than one minor unit of ${pair.to}.`,
    );
  }
  return { pair, midRate, rate, spreadBps, ...amounts };
}

function checked(text: string, currency: string, param: string): Decimal {
  const value = new Money(text);
  const dp = minorUnits(currency);
  if (value.lte(0) || value.decimalPlaces() > dp) {
    throw ServiceError.invalid(
      param,
      `${param} must be above zero with at most ${dp} decimals in ${currency}; '${text}' is not.`,
    );
  }
  return value;
}

/** Text of the terms as partners see them: amounts in their currencies' minor units, rates to 8 places. */
export function termsText(terms: FxTerms) {
  return {
    from_currency: terms.pair.from,
    to_currency: terms.pair.to,
    from_amount: terms.fromAmount.toFixed(minorUnits(terms.pair.from)),
    to_amount: terms.toAmount.toFixed(minorUnits(terms.pair.to)),
    rate: terms.rate.toFixed(8),
    mid_rate: terms.midRate.toFixed(8),
    spread_bps: terms.spreadBps,
    spread_amount: terms.spreadAmount.toFixed(minorUnits(terms.pair.to)),
  };
}

export function termsFromRow(row: {
  from_currency: string;
  to_currency: string;
  from_amount: string;
  to_amount: string;
  rate: string;
  mid_rate: string;
  spread_bps: number;
  spread_amount: string;
}): FxTerms {
  return {
    pair: { from: row.from_currency, to: row.to_currency } as FxPair,
    fromAmount: new Money(row.from_amount),
    toAmount: new Money(row.to_amount),
    spreadAmount: new Money(row.spread_amount),
    rate: new Money(row.rate),
    midRate: new Money(row.mid_rate),
    spreadBps: row.spread_bps,
  };
}
