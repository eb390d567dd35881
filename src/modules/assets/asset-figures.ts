import { Injectable, OnModuleDestroy } from '@nestjs/common';
import Decimal from 'decimal.js';
import type { AssetQueryRow } from 'src/modules/assets/asset-queries';
import type { BondValue } from 'src/modules/pricing/bond-valuation';
import { priceNumber, roundChange } from 'src/modules/pricing/price-precision';
import type { BondTerms, PricedAsset } from 'src/modules/pricing/price-source';
import { changeFrom, PricedQuote, PriceOverride, PricingService } from 'src/modules/pricing/pricing.service';

export const text = (value: unknown): string | null =>
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
  return {
    id: row.id,
    assetClass: row.class,
    market: row.market,
    referencePrice: row.reference_price,
    bond,
    ...(row.price_adjustments?.length ? { adjustments: row.price_adjustments } : {}),
  };
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
export interface PriceFields {
  price: number;
  change: number;
  changePercent: number;
  previousClose: number;
  bidPrice: number;
  askPrice: number;
  price_timestamp: string;
}

/** The bond attributes that move with the date or the price. */
export interface BondFigures {
  bond_status: string;
  next_coupon_date: string | null;
  accrued_interest: number;
  close_price_date: string;
  yields: { yield_to_maturity: number; yield_to_worst: number } | null;
}

export interface Figures {
  price: PriceFields;
  bond: BondFigures | null;
}

const MINUTE = 60_000;
/** Figures kept across minutes: a minute's worth of every row shown (searches nobody repeats included). */
const CACHE_LIMIT = 100_000;
/** Rows shown in one minute whose next minute is prepared, at most. */
const AHEAD_LIMIT = 5_000;
/** How long before the minute turns its figures are prepared, and the work done between yields. */
const AHEAD_LEAD_MS = 20_000;
const AHEAD_SLICE_MS = 4;

/**
 * The figures of an asset resource (price fields, bond figures) at a minute: prices move once a
 * minute, so they are kept per asset state and minute. The key holds everything the figures are
 * computed from (id, reference price, override, bond terms and status), so a changed row never
 * meets figures of its old state.
 *
 * The minute's turn would make every search at that moment compute the figures of all its rows at
 * once (tens of ms for a page of bonds), stalling every request behind it; so the rows shown in the
 * current minute get the next minute's figures computed ahead, in small slices between requests, in
 * the last seconds of the minute. Figures are a pure function of the key, so computing them early
 * changes no answer.
 */
@Injectable()
export class AssetFigures implements OnModuleDestroy {
  /**
   * Figures by minute, then row key. When full, whole minutes go, oldest first: not the minute being
   * filled, nor the next one prepared ahead, which a clear-all would throw away just before use.
   */
  private readonly figures = new Map<number, Map<string, Figures>>();
  private figuresKept = 0;
  /** Per row object (search rows are shared): its key, and the figures of its latest minute. */
  private readonly rows = new WeakMap<AssetQueryRow, { key: string; minute: number; figures?: Figures }>();
  private shownMinute = -1;
  private shown = new Map<string, AssetQueryRow>();
  private aheadTimer: NodeJS.Timeout | undefined;
  private aheadDue = false;
  private aheadRunning = false;
  private stopped = false;

  constructor(private readonly pricing: PricingService) {}

  onModuleDestroy(): void {
    this.stopped = true;
    clearTimeout(this.aheadTimer);
  }

  /** The figures of a row at `at`: kept, or computed (then kept). */
  of(row: AssetQueryRow, at: Date): Figures | Promise<Figures> {
    const minute = Math.floor(at.getTime() / MINUTE);
    // Search rows are shared objects: the figures of a row's latest minute are one lookup away.
    let state = this.rows.get(row);
    if (state?.minute === minute && state.figures) {
      return state.figures;
    }
    if (!state) {
      state = { key: rowKey(row), minute };
      this.rows.set(row, state);
    }
    const latest = state;
    if (latest.minute !== minute) {
      latest.minute = minute;
      latest.figures = undefined;
    }
    this.noteShown(row, latest.key, minute);
    const kept = this.figures.get(minute)?.get(latest.key);
    if (kept) {
      latest.figures = kept;
      return kept;
    }
    return this.compute(row, at, latest.key).then((figures) => {
      if (latest.minute === minute) {
        latest.figures = figures;
      }
      return figures;
    });
  }

  /** Rows shown at the current real minute have the next one prepared (clocks elsewhere do not). */
  private noteShown(row: AssetQueryRow, rowKey: string, minute: number): void {
    const now = Math.floor(Date.now() / MINUTE);
    if (minute !== now || this.stopped) {
      return;
    }
    if (this.shownMinute !== now) {
      this.shownMinute = now;
      this.shown = new Map();
      this.aheadDue = false;
      clearTimeout(this.aheadTimer);
      const wait = Math.max(0, (now + 1) * MINUTE - AHEAD_LEAD_MS - Date.now());
      this.aheadTimer = setTimeout(() => {
        this.aheadDue = true;
        void this.prepareNextMinute();
      }, wait);
      this.aheadTimer.unref();
    }
    if (!this.shown.has(rowKey) && this.shown.size < AHEAD_LIMIT) {
      this.shown.set(rowKey, row);
      if (this.aheadDue) {
        void this.prepareNextMinute();
      }
    }
  }

  /** Computes the next minute's figures of the rows shown, a few ms at a time, until all are ready. */
  private async prepareNextMinute(): Promise<void> {
    if (this.aheadRunning) {
      return;
    }
    this.aheadRunning = true;
    try {
      const shownMinute = this.shownMinute;
      const next = shownMinute + 1;
      const at = new Date(next * MINUTE);
      let sliceStart = Date.now();
      for (;;) {
        const pending = [...this.shown].filter(([rowKey]) => !this.figures.get(next)?.has(rowKey));
        if (pending.length === 0) {
          return;
        }
        for (const [rowKey, row] of pending) {
          if (this.stopped || this.shownMinute !== shownMinute || Date.now() >= next * MINUTE) {
            return; // the minute turned: what is left is computed when asked for
          }
          await this.compute(row, at, rowKey);
          if (Date.now() - sliceStart >= AHEAD_SLICE_MS) {
            await new Promise((resolve) => setImmediate(resolve));
            sliceStart = Date.now();
          }
        }
      }
    } finally {
      this.aheadRunning = false;
    }
  }

  private async compute(row: AssetQueryRow, at: Date, rowKey: string): Promise<Figures> {
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
    this.keep(Math.floor(at.getTime() / MINUTE), rowKey, figures);
    return figures;
  }

  private keep(minute: number, rowKey: string, figures: Figures): void {
    let ofMinute = this.figures.get(minute);
    if (!ofMinute) {
      ofMinute = new Map();
      this.figures.set(minute, ofMinute);
    }
    if (this.figuresKept >= CACHE_LIMIT) {
      const nextMinute = Math.floor(Date.now() / MINUTE) + 1;
      for (const [old, entries] of this.figures) {
        if (old !== minute && old !== nextMinute) {
          this.figures.delete(old);
          this.figuresKept -= entries.size;
        }
      }
      if (this.figuresKept >= CACHE_LIMIT) {
        this.figuresKept -= ofMinute.size;
        ofMinute.clear();
      }
    }
    if (!ofMinute.has(rowKey)) {
      this.figuresKept++;
    }
    ofMinute.set(rowKey, figures);
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
      bond_status: bondStatus(row, value),
      next_coupon_date: value.nextCouponDate,
      accrued_interest: value.accruedInterest.toDecimalPlaces(6).toNumber(),
      close_price_date: quote.session === 'regular' ? quote.previousCloseDate : quote.sessionDate,
      yields:
        ytm === undefined
          ? null
          : { yield_to_maturity: ytm, yield_to_worst: Math.min(ytm, percent(ytc) ?? ytm) },
    };
  }
}

/** Everything the figures of a row are computed from (id, reference price, override, bond terms and status). */
function rowKey(row: AssetQueryRow): string {
  const override = overrideOf(row);
  const bond = row.b_cusip ? JSON.stringify([pricedAssetOf(row).bond, row.b_bond_status]) : '';
  const splits = (row.price_adjustments ?? []).map((a) => `${a.factor}@${a.from.getTime()}`).join(',');
  return `${row.id}|${row.reference_price}|${override?.price}|${override?.setAt.getTime()}|${bond}|${splits}`;
}

/** The provider's status, moved on by the calendar: matured after maturity, outstanding once issued. */
function bondStatus(row: AssetQueryRow, value: BondValue): string {
  if (value.matured) {
    return 'matured';
  }
  const issue = text(row.b_issue_date);
  if (issue !== null && value.settlementDate < issue) {
    return 'pre_issuance';
  }
  return row.b_bond_status === 'matured' ? 'matured' : 'outstanding';
}
