import { Injectable } from '@nestjs/common';
import { toDecimalText } from 'src/core/money/money';
import { AssetFigures, BondFigures, Figures, text } from 'src/modules/assets/asset-figures';
import type { AssetQueryRow } from 'src/modules/assets/asset-queries';
import type { AssetDto } from 'src/modules/assets/dto/asset.dto';
import type { BondAttributesDto } from 'src/modules/assets/dto/bond-attributes.dto';

export { overrideOf, pricedAssetOf } from 'src/modules/assets/asset-figures';

/**
 * Asset rows and their quotes as asset resources (spec, Asset and Bond attributes), from the figures
 * kept per asset and minute (AssetFigures). For searches the resource's JSON text is kept too, per
 * row object (search rows are shared while the catalogue does not change), figures and mode, so a
 * repeated search serialises nothing.
 */
@Injectable()
export class AssetPresenter {
  private readonly texts = new WeakMap<AssetQueryRow, { figures: Figures; text: [string?, string?] }>();

  constructor(private readonly figures: AssetFigures) {}

  async present(rows: AssetQueryRow[], livemode: boolean, at: Date = new Date()): Promise<AssetDto[]> {
    return Promise.all(rows.map((row) => this.presentOne(row, livemode, at)));
  }

  async presentOne(row: AssetQueryRow, livemode: boolean, at: Date = new Date()): Promise<AssetDto> {
    return this.record(row, livemode, await this.figures.of(row, at));
  }

  /** The JSON text of each row's asset resource: JSON.stringify of what `present` answers. */
  async presentJson(rows: AssetQueryRow[], livemode: boolean, at: Date): Promise<string[]> {
    const texts: string[] = [];
    for (const row of rows) {
      const figures = await this.figures.of(row, at);
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
      created: null,
      livemode,
      metadata: {},
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
}
