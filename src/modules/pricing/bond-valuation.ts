import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { Money } from 'src/core/money/money';
import {
  accruedInterest,
  billBondEquivalentYield,
  billPriceFromBondEquivalentYield,
  nextCouponDate,
  previousCouponDate,
  priceFromYield,
  RegularBondInput,
  settlementDate,
  yieldFromPrice,
} from 'src/modules/fixed-income/bond-math';
import type { BondTerms, PricedAsset } from 'src/modules/pricing/price-source';

/** A bond's value at a settlement date, per 100 face. Yields are annual fractions. */
export interface BondValue {
  settlementDate: string;
  cleanPrice: Decimal;
  accruedInterest: Decimal;
  /** Always cleanPrice + accruedInterest. */
  dirtyPrice: Decimal;
  yieldToMaturity: Decimal | null;
  nextCouponDate: string | null;
  previousCouponDate: string | null;
  matured: boolean;
}

const PAR = new Money(100);
const CACHE_LIMIT = 20_000;

function isBill(asset: PricedAsset, terms: BondTerms): boolean {
  return asset.assetClass === 'bill' || (terms.couponFrequency === 0 && terms.bondType === 'treasury');
}

/**
 * Clean price <-> yield, accrued interest and coupon dates of a bond at the settlement date of a trade
 * date, from the bond-math module. Treasury bills use the bond-equivalent (investment) yield the
 * Treasury publishes; coupon bonds the street-convention yield of the spreadsheet PRICE/YIELD functions.
 */
@Injectable()
export class BondValuation {
  private readonly yields = new Map<string, Decimal | null>();
  private readonly settlements = new Map<string, string>();

  settlement(asset: PricedAsset, tradeDate: string): string {
    const period = this.terms(asset).settlementPeriod;
    const key = `${asset.market}|${period}|${tradeDate}`;
    let date = this.settlements.get(key);
    if (date === undefined) {
      date = settlementDate(tradeDate, period, asset.market);
      if (this.settlements.size >= CACHE_LIMIT) {
        this.settlements.clear();
      }
      this.settlements.set(key, date);
    }
    return date;
  }

  isMatured(asset: PricedAsset, settlement: string): boolean {
    const maturity = this.terms(asset).maturityDate;
    return maturity !== null && settlement >= maturity;
  }

  cleanFromYield(asset: PricedAsset, yieldRate: Decimal, settlement: string): Decimal {
    const terms = this.terms(asset);
    if (this.isMatured(asset, settlement) || terms.maturityDate === null) {
      return PAR;
    }
    if (isBill(asset, terms)) {
      return billPriceFromBondEquivalentYield({ settlement, maturity: terms.maturityDate, yield: yieldRate });
    }
    return priceFromYield({ ...this.pricingInput(terms, settlement), yield: yieldRate });
  }

  /** The yield that reproduces a clean price; null once matured or when no yield fits. */
  yieldFromClean(asset: PricedAsset, price: Decimal, settlement: string): Decimal | null {
    const key = `${asset.id}|${settlement}|${price.toString()}`;
    if (this.yields.has(key)) {
      return this.yields.get(key) ?? null;
    }
    const terms = this.terms(asset);
    let result: Decimal | null = null;
    if (!this.isMatured(asset, settlement) && terms.maturityDate !== null) {
      try {
        result = isBill(asset, terms)
          ? billBondEquivalentYield({ settlement, maturity: terms.maturityDate, price })
          : yieldFromPrice({ ...this.pricingInput(terms, settlement), price });
      } catch {
        result = null;
      }
    }
    if (this.yields.size >= CACHE_LIMIT) {
      this.yields.clear();
    }
    this.yields.set(key, result);
    return result;
  }

  accrued(asset: PricedAsset, settlement: string): Decimal {
    const terms = this.terms(asset);
    if (this.isMatured(asset, settlement) || terms.couponFrequency === 0 || terms.maturityDate === null) {
      return new Money(0);
    }
    const issue = terms.datedDate ?? terms.issueDate;
    if (issue !== null && settlement < issue) {
      return new Money(0);
    }
    const input = {
      ...this.pricingInput(terms, settlement),
      ...(issue ? { issueDate: issue } : {}),
    };
    try {
      return accruedInterest(
        terms.firstCouponDate ? { ...input, firstCouponDate: terms.firstCouponDate } : input,
      );
    } catch {
      // A first coupon off the regular schedule: accrue over regular periods instead.
      return accruedInterest(input);
    }
  }

  /** Value at the settlement of a trade on `tradeDate`, from a clean price (and its yield when known). */
  value(asset: PricedAsset, cleanPrice: Decimal, tradeDate: string, knownYield?: Decimal): BondValue {
    const terms = this.terms(asset);
    const settlement = this.settlement(asset, tradeDate);
    const matured = this.isMatured(asset, settlement);
    const accrued = this.accrued(asset, settlement);
    const schedule =
      terms.maturityDate !== null && terms.couponFrequency !== 0 && !matured
        ? { maturity: terms.maturityDate, frequency: terms.couponFrequency }
        : null;
    return {
      settlementDate: settlement,
      cleanPrice,
      accruedInterest: accrued,
      dirtyPrice: cleanPrice.plus(accrued),
      yieldToMaturity: matured ? null : (knownYield ?? this.yieldFromClean(asset, cleanPrice, settlement)),
      nextCouponDate: schedule ? nextCouponDate(settlement, schedule) : null,
      previousCouponDate: schedule ? this.previousCoupon(terms, settlement) : null,
      matured,
    };
  }

  /** Yield to the next call at its call price, when the bond is callable on a known date after settlement. */
  yieldToCall(asset: PricedAsset, price: Decimal, settlement: string): Decimal | null {
    const terms = this.terms(asset);
    if (!terms.nextCallDate || !terms.nextCallPrice || terms.nextCallDate <= settlement) {
      return null;
    }
    try {
      return yieldFromPrice({
        ...this.pricingInput(terms, settlement),
        maturity: terms.nextCallDate,
        redemption: terms.nextCallPrice,
        price,
      });
    } catch {
      return null;
    }
  }

  private previousCoupon(terms: BondTerms, settlement: string): string | null {
    const issue = terms.datedDate ?? terms.issueDate;
    if (issue !== null && settlement < issue) {
      return null;
    }
    return previousCouponDate(settlement, {
      maturity: terms.maturityDate as string,
      frequency: terms.couponFrequency,
      ...(issue ? { issueDate: issue } : {}),
    });
  }

  private pricingInput(terms: BondTerms, settlement: string): RegularBondInput {
    return {
      settlement,
      maturity: terms.maturityDate as string,
      frequency: terms.couponFrequency,
      couponRate: terms.couponRate,
      basis: terms.accrualBasis,
    };
  }

  private terms(asset: PricedAsset): BondTerms {
    if (!asset.bond) {
      throw new Error(`Asset ${asset.id} has no bond terms.`);
    }
    return asset.bond;
  }
}
