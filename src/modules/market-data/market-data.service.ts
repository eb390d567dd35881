import { Injectable } from '@nestjs/common';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import { ServiceError } from 'src/core/errors/service-error';
import { ListEnvelope, toList } from 'src/core/http/envelope';
import { AssetsService, ResolvedAsset } from 'src/modules/assets/assets.service';
import type { BarsDto, QuoteDto, SnapshotDto } from 'src/modules/market-data/dto/market-data.dto';
import { BarsQuery, MAX_BARS, SnapshotsQuery } from 'src/modules/market-data/dto/market-data.query';
import {
  barRecord,
  bondBlock,
  changeFields,
  quoteTick,
  tradeTick,
} from 'src/modules/market-data/market-data.presenter';
import { decodePageToken, encodePageToken } from 'src/modules/market-data/page-token';
import type { Timeframe } from 'src/modules/pricing/price-source';
import { PricingService } from 'src/modules/pricing/pricing.service';

const DAY = 86_400_000;
const DEFAULT_LOOKBACK: Record<Timeframe, number> = {
  '1Min': DAY,
  '5Min': 5 * DAY,
  '1Hour': 30 * DAY,
  '1Day': 365 * DAY,
};
const MAX_SNAPSHOT_SYMBOLS = 100;
const MAX_BOND_BARS_PER_PAGE = 100;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Market Data add-on: quotes, bars and snapshots from the price engine (Alpaca market-data style), as of
 * the caller's clock (the tenant's test clock in test mode).
 */
@Injectable()
export class MarketDataService {
  constructor(
    private readonly assets: AssetsService,
    private readonly pricing: PricingService,
    private readonly clock: ClockService,
  ) {}

  async quote(principal: Principal, symbol: string): Promise<QuoteDto> {
    const asset = await this.assets.resolve(principal, symbol);
    const now = await this.clock.now(principal);
    const quote = await this.pricing.quote(asset.priced, asset.override, now);
    const value = this.pricing.bondValue(asset.priced, quote, now);
    return {
      object: 'quote',
      livemode: principal.livemode,
      ...this.identity(asset),
      session: quote.session,
      source: quote.source,
      quote: quoteTick(asset.priced, quote),
      trade: tradeTick(asset.priced, quote),
      ...changeFields(asset.priced, quote),
      ...(value ? { bond: bondBlock(value) } : {}),
    };
  }

  async bars(principal: Principal, symbol: string, query: BarsQuery): Promise<BarsDto> {
    const asset = await this.assets.resolve(principal, symbol);
    const now = await this.clock.now(principal);
    const sort = query.sort ?? 'asc';
    let end = query.end ? this.instant(query.end, 'end') : now;
    end = end > now ? now : end;
    let start = query.start
      ? this.instant(query.start, 'start')
      : new Date(end.getTime() - DEFAULT_LOOKBACK[query.timeframe]);
    if (start > end) {
      throw ServiceError.invalid('start', 'start must be on or before end.');
    }
    if (query.page_token !== undefined) {
      const resume = decodePageToken(query.page_token, sort);
      if (sort === 'asc') {
        start = resume;
      } else {
        end = resume;
      }
    }
    const page = await this.pricing.bars(asset.priced, {
      timeframe: query.timeframe,
      start,
      end,
      // Each bond price is a bond-math valuation: bond pages stop at 100 bars (next_page_token goes on).
      limit: Math.min(query.limit ?? 100, asset.priced.bond ? MAX_BOND_BARS_PER_PAGE : MAX_BARS),
      sort,
      asOf: now,
    });
    return {
      object: 'bars',
      livemode: principal.livemode,
      symbol: asset.row.symbol,
      asset_id: asset.row.id,
      timeframe: query.timeframe,
      currency: asset.row.currency,
      bars: page.bars.map((bar) => barRecord(asset.priced, bar)),
      next_page_token: page.next ? encodePageToken(page.next, sort) : null,
    };
  }

  async snapshots(
    principal: Principal,
    query: SnapshotsQuery,
    url: string,
  ): Promise<ListEnvelope<SnapshotDto>> {
    const symbols = [
      ...new Set(
        query.symbols
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    if (symbols.length === 0) {
      throw ServiceError.missing('symbols');
    }
    if (symbols.length > MAX_SNAPSHOT_SYMBOLS) {
      throw ServiceError.invalid('symbols', `At most ${MAX_SNAPSHOT_SYMBOLS} symbols per request.`);
    }
    const resolved: ResolvedAsset[] = [];
    const unknown: string[] = [];
    for (const symbol of symbols) {
      const asset = await this.assets.resolve(principal, symbol).catch((err: unknown) => {
        if (err instanceof ServiceError && err.status === 404) {
          unknown.push(symbol);
          return null;
        }
        throw err;
      });
      if (asset) {
        resolved.push(asset);
      }
    }
    if (unknown.length > 0) {
      throw ServiceError.invalid('symbols', `Unknown symbol(s): ${unknown.join(', ')}.`);
    }
    const now = await this.clock.now(principal);
    const data = await Promise.all(resolved.map((asset) => this.snapshot(principal, asset, now)));
    return toList(url, data, false);
  }

  private async snapshot(principal: Principal, asset: ResolvedAsset, now: Date): Promise<SnapshotDto> {
    const quote = await this.pricing.quote(asset.priced, asset.override, now);
    const value = this.pricing.bondValue(asset.priced, quote, now);
    const recent = (timeframe: Timeframe, limit: number, lookback: number) =>
      this.pricing.bars(asset.priced, {
        timeframe,
        start: new Date(now.getTime() - lookback),
        end: now,
        limit,
        sort: 'desc',
        asOf: now,
      });
    const [minute, daily] = await Promise.all([recent('1Min', 1, 10 * DAY), recent('1Day', 2, 40 * DAY)]);
    const bar = (index: number, bars: typeof daily.bars) =>
      bars[index] ? barRecord(asset.priced, bars[index]) : null;
    return {
      object: 'snapshot',
      livemode: principal.livemode,
      ...this.identity(asset),
      session: quote.session,
      latest_trade: tradeTick(asset.priced, quote),
      latest_quote: quoteTick(asset.priced, quote),
      minute_bar: bar(0, minute.bars),
      daily_bar: bar(0, daily.bars),
      prev_daily_bar: bar(1, daily.bars),
      ...(value ? { bond: bondBlock(value) } : {}),
    };
  }

  private identity(asset: ResolvedAsset) {
    return {
      symbol: asset.row.symbol,
      asset_id: asset.row.id,
      class: asset.row.class,
      market: asset.row.market,
      currency: asset.row.currency,
    };
  }

  /** RFC 3339 instant, or a YYYY-MM-DD date (start: its UTC midnight; end: the whole UTC day). */
  private instant(value: string, param: 'start' | 'end'): Date {
    const date = DATE_ONLY.test(value)
      ? new Date(Date.parse(`${value}T00:00:00Z`) + (param === 'end' ? DAY - 1 : 0))
      : new Date(value);
    if (Number.isNaN(date.getTime())) {
      throw ServiceError.invalid(param, `${param} must be an RFC 3339 date-time or a YYYY-MM-DD date.`);
    }
    return date;
  }
}
