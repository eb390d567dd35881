import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { toDecimalText } from 'src/core/money/money';
import type { AssetQueryRow } from 'src/modules/assets/asset-queries';
import type { AssetDto } from 'src/modules/assets/dto/asset.dto';
import type { BondAttributesDto } from 'src/modules/assets/dto/bond-attributes.dto';
import type { BondValue } from 'src/modules/pricing/bond-valuation';
import { priceNumber, roundChange } from 'src/modules/pricing/price-precision';
import type { BondTerms, PricedAsset } from 'src/modules/pricing/price-source';
import { changeFrom, PricedQuote, PriceOverride, PricingService } from 'src/modules/pricing/pricing.service';

const text = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

/** What the price engine needs from an asset row. */
export function pricedAssetOf(row: AssetQueryRow): PricedAsset {
  const bond: BondTerms | null = row.b_cusip
    ? {
        maturityDate: text(row.b_maturity_date),
        issueDate: text(row.b_issue_date),
        datedDate: text(row.b_dated_date),
        firstCouponDate: text(row.b_first_coupon_date),
        couponRate: String(row.b_coupon_rate),
        couponFrequency: Number(row.b_coupon_frequency) as BondTerms['couponFrequency'],
        accrualBasis: row.b_accrual_basis as BondTerms['accrualBasis'],
        settlementPeriod: Number(row.b_settlement_period),
        referencePriceDate: text(row.b_reference_price_date),
        bondType: String(row.b_bond_type),
        perpetual: row.b_perpetual === true,
        nextCallDate: text(row.b_next_call_date),
        nextCallPrice: text(row.b_next_call_price),
      }
    : null;
  return { id: row.id, assetClass: row.class, market: row.market, referencePrice: row.reference_price, bond };
}

export function overrideOf(row: AssetQueryRow): PriceOverride | null {
  return row.override_price !== null && row.override_set_at !== null
    ? { price: row.override_price, setAt: row.override_set_at }
    : null;
}

/** Percent with four decimals (yields are fractions inside the service). */
function percent(value: Decimal | null | undefined): number | undefined {
  return value ? value.times(100).toDecimalPlaces(4).toNumber() : undefined;
}

/** The price-dependent fields of an asset resource. */
interface PriceFields {
  price: number;
  change: number;
  changePercent: number;
  previousClose: number;
  bidPrice: number;
  askPrice: number;
  price_timestamp: string;
}

/** The bond attributes that move with the date or the price. */
interface BondFigures {
  bond_status: string;
  next_coupon_date: string | null;
  accrued_interest: number;
  close_price_date: string;
  yields: { yield_to_maturity: number; yield_to_worst: number } | null;
}

const MINUTE = 60_000;
const CACHE_LIMIT = 50_000;

type Figures = { price: PriceFields; bond: BondFigures | null };

/**
 * Asset rows and their quotes as asset resources (spec, Asset and Bond attributes). Prices move once a
 * minute, so the computed figures of an asset are kept per minute (and per override): a search that
 * shows the same assets again within the minute does no price or bond arithmetic. For searches the
 * resource's JSON text is kept too, per row object (search rows are shared while the catalogue does
 * not change), figures and mode, so a repeated search serialises nothing.
 */
@Injectable()
export class AssetPresenter {
  private readonly figures = new Map<string, Figures>();
  private readonly texts = new WeakMap<AssetQueryRow, { figures: Figures; text: [string?, string?] }>();

  constructor(private readonly pricing: PricingService) {}

  async present(rows: AssetQueryRow[], livemode: boolean, at: Date = new Date()): Promise<AssetDto[]> {
    return Promise.all(rows.map((row) => this.presentOne(row, livemode, at)));
  }

  async presentOne(row: AssetQueryRow, livemode: boolean, at: Date = new Date()): Promise<AssetDto> {
    return this.record(row, livemode, await this.figuresOf(row, at));
  }

  /** The JSON text of each row's asset resource: JSON.stringify of what `present` answers. */
  async presentJson(rows: AssetQueryRow[], livemode: boolean, at: Date): Promise<string[]> {
    const minute = Math.floor(at.getTime() / MINUTE);
    const texts: string[] = [];
    for (const row of rows) {
      const key = this.figuresKey(row, minute);
      const figures = this.figures.get(key) ?? (await this.computeFigures(row, at, key));
      let kept = this.texts.get(row);
      if (!kept || kept.figures !== figures) {
        kept = { figures, text: [] };
        this.texts.set(row, kept);
      }
      const mode = livemode ? 1 : 0;
      texts.push((kept.text[mode] ??= JSON.stringify(this.record(row, livemode, figures))));
    }
    return texts;
  }

  private record(row: AssetQueryRow, livemode: boolean, { price, bond }: Figures): AssetDto {
    const record: AssetDto = {
      id: row.id,
      object: 'asset',
      livemode,
      class: row.class,
      country: row.country,
      market: row.market,
      market_name: row.market_name,
      market_country: row.market_country,
      market_currency: row.market_currency,
      symbol: row.symbol,
      name: row.name,
      status: row.status,
      tradable: row.tradable,
      marginable: row.marginable,
      shortable: row.shortable,
      easy_to_borrow: row.easy_to_borrow,
      fractionable: row.fractionable,
      fractional_eh_enabled: row.fractional_eh_enabled,
      currency: row.currency,
      price: price.price,
      change: price.change,
      changePercent: price.changePercent,
      previousClose: price.previousClose,
      bidPrice: price.bidPrice,
      askPrice: price.askPrice,
      price_timestamp: price.price_timestamp,
      last_synced_at: row.last_synced_at ? row.last_synced_at.toISOString() : null,
    };
    if (bond) {
      record.bond = this.bondAttributes(row, bond);
    }
    return record;
  }

  private figuresKey(row: AssetQueryRow, minute: number): string {
    const override = overrideOf(row);
    return `${row.id}|${row.reference_price}|${minute}|${override?.price}|${override?.setAt.getTime()}`;
  }

  private figuresOf(row: AssetQueryRow, at: Date): Promise<Figures> | Figures {
    const key = this.figuresKey(row, Math.floor(at.getTime() / MINUTE));
    return this.figures.get(key) ?? this.computeFigures(row, at, key);
  }

  private async computeFigures(row: AssetQueryRow, at: Date, key: string): Promise<Figures> {
    const override = overrideOf(row);
    const priced = pricedAssetOf(row);
    const quote = await this.pricing.quote(priced, override, at);
    const { change, percent: changePercent } = changeFrom(quote);
    const price: PriceFields = {
      price: priceNumber(priced, quote.last),
      change: roundChange(priced, change, quote.last).toNumber(),
      changePercent: changePercent.toDecimalPlaces(4).toNumber(),
      previousClose: priceNumber(priced, quote.previousClose),
      bidPrice: priceNumber(priced, quote.bid),
      askPrice: priceNumber(priced, quote.ask),
      price_timestamp: quote.timestamp.toISOString(),
    };
    const value = this.pricing.bondValue(priced, quote, at);
    const figures = { price, bond: value ? this.bondFigures(row, priced, quote, value, at) : null };
    if (this.figures.size >= CACHE_LIMIT) {
      this.figures.clear();
    }
    this.figures.set(key, figures);
    return figures;
  }

  private bondFigures(
    row: AssetQueryRow,
    priced: PricedAsset,
    quote: PricedQuote,
    value: BondValue,
    at: Date,
  ): BondFigures {
    const ytm = percent(value.yieldToMaturity);
    const ytc = value.matured ? null : this.pricing.yieldToCall(priced, quote, at);
    return {
      bond_status: this.bondStatus(row, value),
      next_coupon_date: value.nextCouponDate,
      accrued_interest: value.accruedInterest.toDecimalPlaces(6).toNumber(),
      close_price_date: quote.session === 'regular' ? quote.previousCloseDate : quote.sessionDate,
      yields:
        ytm === undefined
          ? null
          : { yield_to_maturity: ytm, yield_to_worst: Math.min(ytm, percent(ytc) ?? ytm) },
    };
  }

  private bondAttributes(row: AssetQueryRow, figures: BondFigures): BondAttributesDto {
    return {
      cusip: String(row.b_cusip),
      isin: String(row.b_isin),
      bond_status: figures.bond_status,
      bond_type: String(row.b_bond_type),
      bond_subtype: text(row.b_bond_subtype),
      maturity_date: text(row.b_maturity_date),
      issue_date: text(row.b_issue_date),
      dated_date: text(row.b_dated_date),
      first_coupon_date: text(row.b_first_coupon_date),
      next_coupon_date: figures.next_coupon_date,
      last_coupon_date: text(row.b_last_coupon_date),
      coupon_rate: toDecimalText(String(row.b_coupon_rate)),
      coupon_type: String(row.b_coupon_type),
      coupon_frequency: Number(row.b_coupon_frequency),
      accrual_basis: String(row.b_accrual_basis),
      accrued_interest: figures.accrued_interest,
      face_value: toDecimalText(String(row.b_face_value)),
      min_increment: toDecimalText(String(row.b_min_increment)),
      settlement_period: Number(row.b_settlement_period),
      close_price_date: figures.close_price_date,
      ...(figures.yields ?? {}),
      callable: row.b_callable === true,
      puttable: row.b_puttable === true,
      convertible: row.b_convertible === true,
      perpetual: row.b_perpetual === true,
      next_call_date: text(row.b_next_call_date),
      next_call_price: row.b_next_call_price === null ? null : Number(row.b_next_call_price),
      call_type: text(row.b_call_type),
      issuer: text(row.b_issuer),
      ticker: text(row.b_ticker),
      sector: text(row.b_sector),
      seniority: text(row.b_seniority),
      country_domicile: text(row.b_country_domicile),
      rating: text(row.b_rating),
      sp_rating: text(row.b_sp_rating),
      sp_outlook: text(row.b_sp_outlook),
    };
  }

  /** The provider's status, moved on by the calendar: matured after maturity, outstanding once issued. */
  private bondStatus(row: AssetQueryRow, value: BondValue): string {
    if (value.matured) {
      return 'matured';
    }
    const issue = text(row.b_issue_date);
    if (issue !== null && value.settlementDate < issue) {
      return 'pre_issuance';
    }
    return row.b_bond_status === 'matured' ? 'matured' : 'outstanding';
  }
}
