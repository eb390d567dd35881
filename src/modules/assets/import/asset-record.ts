import { isDecimalText } from 'src/core/money/money';
import type { AccrualBasis, CouponFrequency } from 'src/modules/fixed-income/bond-math';
import { STANDARD_SETTLEMENT_PERIODS } from 'src/modules/fixed-income/bond-math/settlement';
import { listedAssetId, isValidCusip, isValidIsin } from 'src/modules/assets/identifiers';
import { getMarket } from 'src/modules/markets/calendar';
import { ASSET_CLASSES, AssetClass, BOND_CLASSES } from 'src/modules/pricing/price-source';

/** An asset ready to store: the spec's fields, a reference price and, for bonds, its static terms. */
export interface AssetRow {
  id: string;
  class: AssetClass;
  country: string | null;
  market: string;
  market_name: string;
  market_country: string | null;
  market_currency: string;
  symbol: string;
  name: string;
  status: 'active' | 'inactive';
  tradable: boolean;
  marginable: boolean;
  shortable: boolean;
  easy_to_borrow: boolean;
  fractionable: boolean;
  fractional_eh_enabled: boolean;
  currency: string;
  reference_price: string;
  bond: BondRow | null;
}

/** Columns of the assets table that an imported record fills (last_synced_at is set by the import). */
export const ASSET_COLUMNS = [
  'id',
  'class',
  'country',
  'market',
  'market_name',
  'market_country',
  'market_currency',
  'symbol',
  'name',
  'status',
  'tradable',
  'marginable',
  'shortable',
  'easy_to_borrow',
  'fractionable',
  'fractional_eh_enabled',
  'currency',
  'reference_price',
] as const satisfies readonly (keyof AssetRow)[];

export interface BondRow {
  cusip: string;
  isin: string;
  bond_status: string;
  bond_type: string;
  bond_subtype: string | null;
  maturity_date: string | null;
  issue_date: string | null;
  dated_date: string | null;
  first_coupon_date: string | null;
  last_coupon_date: string | null;
  coupon_rate: string;
  coupon_type: string;
  coupon_frequency: CouponFrequency;
  accrual_basis: AccrualBasis;
  face_value: string;
  min_increment: string;
  settlement_period: number;
  reference_price_date: string | null;
  callable: boolean;
  puttable: boolean;
  convertible: boolean;
  perpetual: boolean;
  next_call_date: string | null;
  next_call_price: string | null;
  call_type: string | null;
  issuer: string | null;
  ticker: string | null;
  sector: string | null;
  seniority: string | null;
  country_domicile: string | null;
  rating: string | null;
  sp_rating: string | null;
  sp_outlook: string | null;
}

/** Columns of asset_bonds other than the dates (text, numbers and flags as stored). */
export const BOND_TEXT_COLUMNS = [
  'cusip',
  'isin',
  'bond_status',
  'bond_type',
  'bond_subtype',
  'coupon_rate',
  'coupon_type',
  'coupon_frequency',
  'accrual_basis',
  'face_value',
  'min_increment',
  'settlement_period',
  'callable',
  'puttable',
  'convertible',
  'perpetual',
  'next_call_price',
  'call_type',
  'issuer',
  'ticker',
  'sector',
  'seniority',
  'country_domicile',
  'rating',
  'sp_rating',
  'sp_outlook',
] as const satisfies readonly (keyof BondRow)[];

/** The date columns of asset_bonds (reads turn them into 'YYYY-MM-DD' text). */
export const BOND_DATE_COLUMNS = [
  'maturity_date',
  'issue_date',
  'dated_date',
  'first_coupon_date',
  'last_coupon_date',
  'reference_price_date',
  'next_call_date',
] as const satisfies readonly (keyof BondRow)[];

/** Every column of asset_bonds an imported record fills, besides asset_id. */
export const BOND_COLUMNS = [...BOND_TEXT_COLUMNS, ...BOND_DATE_COLUMNS] as const;

type Raw = Record<string, unknown>;

/** Collects every problem of one record as `field: what is wrong`. */
class Reader {
  readonly problems: string[] = [];

  constructor(
    private readonly raw: Raw,
    private readonly prefix = '',
  ) {}

  private fail(field: string, message: string): void {
    this.problems.push(`${this.prefix}${field}: ${message}`);
  }

  private value(field: string): unknown {
    const value = this.raw[field];
    return typeof value === 'string' ? value.trim() : value;
  }

  text(field: string, options: { optional?: boolean; pattern?: RegExp; max?: number } = {}): string | null {
    const value = this.value(field);
    if (value === undefined || value === null || value === '') {
      if (!options.optional) {
        this.fail(field, 'is required');
      }
      return null;
    }
    if (typeof value !== 'string') {
      this.fail(field, 'must be text');
      return null;
    }
    if (value.length > (options.max ?? 200) || (options.pattern && !options.pattern.test(value))) {
      this.fail(field, `has an invalid value '${value}'`);
      return null;
    }
    return value;
  }

  oneOf<T extends string>(field: string, allowed: readonly T[], optional = false): T | null {
    const value = this.text(field, { optional });
    if (value !== null && !allowed.includes(value as T)) {
      this.fail(field, `must be one of ${allowed.join(', ')}`);
      return null;
    }
    return value as T | null;
  }

  bool(field: string, fallback?: boolean): boolean {
    const value = this.value(field);
    if (value === true || value === 'true') {
      return true;
    }
    if (value === false || value === 'false') {
      return false;
    }
    if ((value === undefined || value === null || value === '') && fallback !== undefined) {
      return fallback;
    }
    this.fail(field, 'must be true or false');
    return false;
  }

  decimal(field: string, options: { optional?: boolean; positive?: boolean } = {}): string | null {
    const raw = this.value(field);
    const value = typeof raw === 'number' ? String(raw) : raw;
    if (value === undefined || value === null || value === '') {
      if (!options.optional) {
        this.fail(field, 'is required');
      }
      return null;
    }
    if (typeof value !== 'string' || !isDecimalText(value) || (options.positive && !(Number(value) > 0))) {
      this.fail(field, `must be a ${options.positive ? 'positive ' : ''}decimal number`);
      return null;
    }
    return value;
  }

  integer(field: string, allowed: (n: number) => boolean): number {
    const value = Number(this.value(field));
    if (!Number.isInteger(value) || !allowed(value)) {
      this.fail(field, 'has an invalid value');
    }
    return value;
  }

  date(field: string, optional = true): string | null {
    const value = this.text(field, { optional, pattern: /^\d{4}-\d{2}-\d{2}$/ });
    if (value !== null && Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
      this.fail(field, `is not a valid date '${value}'`);
      return null;
    }
    return value;
  }
}

const CODE = /^[A-Z]{2}$/;

function readBond(raw: Raw, problems: string[]): BondRow | null {
  const r = new Reader(raw, 'bond.');
  const cusip = r.text('cusip', { pattern: /^[0-9A-Z*@#]{9}$/ });
  const isin = r.text('isin', { pattern: /^[A-Z0-9]{12}$/ });
  const bond: BondRow = {
    cusip: cusip ?? '',
    isin: isin ?? '',
    bond_status: r.oneOf('bond_status', ['outstanding', 'pre_issuance', 'matured']) ?? '',
    bond_type: r.oneOf('bond_type', ['treasury', 'corporate', 'municipal', 'agency', 'sovereign']) ?? '',
    bond_subtype: r.text('bond_subtype', { optional: true }),
    maturity_date: r.date('maturity_date', raw.perpetual === true || raw.perpetual === 'true'),
    issue_date: r.date('issue_date'),
    dated_date: r.date('dated_date'),
    first_coupon_date: r.date('first_coupon_date'),
    last_coupon_date: r.date('last_coupon_date'),
    coupon_rate: r.decimal('coupon_rate') ?? '0',
    coupon_type: r.text('coupon_type') ?? '',
    coupon_frequency: r.integer('coupon_frequency', (n) => [0, 1, 2, 4, 12].includes(n)) as CouponFrequency,
    accrual_basis: r.oneOf('accrual_basis', ['ACT/ACT', 'ACT/360', '30/360', 'ACT/365']) ?? 'ACT/ACT',
    face_value: r.decimal('face_value', { positive: true }) ?? '0',
    min_increment: r.decimal('min_increment', { positive: true }) ?? '0',
    settlement_period: r.integer('settlement_period', (n) => n >= 0 && n <= 30),
    reference_price_date: r.date('close_price_date'),
    callable: r.bool('callable'),
    puttable: r.bool('puttable'),
    convertible: r.bool('convertible'),
    perpetual: r.bool('perpetual'),
    next_call_date: r.date('next_call_date'),
    next_call_price: r.decimal('next_call_price', { optional: true, positive: true }),
    call_type: r.text('call_type', { optional: true }),
    issuer: r.text('issuer', { optional: true }),
    ticker: r.text('ticker', { optional: true, max: 32 }),
    sector: r.text('sector', { optional: true }),
    seniority: r.text('seniority', { optional: true }),
    country_domicile: r.text('country_domicile', { optional: true, pattern: CODE }),
    rating: r.text('rating', { optional: true, max: 16 }),
    sp_rating: r.text('sp_rating', { optional: true, max: 16 }),
    sp_outlook: r.oneOf('sp_outlook', ['positive', 'negative', 'stable', 'developing'], true),
  };
  problems.push(...r.problems);
  const standard = STANDARD_SETTLEMENT_PERIODS[bond.bond_type];
  if (standard !== undefined && bond.settlement_period !== standard) {
    problems.push(
      `bond.settlement_period: a ${bond.bond_type} bond settles T+${standard}, so it must be ${standard}`,
    );
  }
  if (cusip && !isValidCusip(cusip)) {
    problems.push(`bond.cusip: check digit of '${cusip}' is wrong`);
  }
  if (isin && !isValidIsin(isin)) {
    problems.push(`bond.isin: check digit of '${isin}' is wrong`);
  }
  if (cusip && isin && /^(US|CA)/.test(isin) && isin.slice(2, 11) !== cusip) {
    problems.push(`bond.isin: '${isin}' does not contain the CUSIP '${cusip}'`);
  }
  return bond;
}

/**
 * Validates one record of a reference-data file (the spec's snake_case asset plus reference_price and,
 * for bonds, a `bond` object) and gives the row to store, or the list of problems.
 */
export function readAssetRecord(raw: unknown): { row: AssetRow } | { problems: string[] } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { problems: ['record: must be an object'] };
  }
  const record = raw as Raw;
  const r = new Reader(record);
  const assetClass = r.oneOf('class', ASSET_CLASSES);
  const marketCode = r.text('market');
  const market = marketCode ? getMarket(marketCode) : undefined;
  if (marketCode && !market) {
    r.problems.push(`market: unknown market '${marketCode}'`);
  }
  const symbol = r.text('symbol', { max: 64 });
  const countryText = r.text('country', { optional: true, pattern: /^[A-Za-z]{2}$/ });
  const row: AssetRow = {
    id: '',
    class: assetClass ?? 'equity',
    country: countryText ? countryText.toLowerCase() : null,
    market: market?.code ?? '',
    market_name: r.text('market_name', { optional: true }) ?? market?.display_name ?? '',
    market_country: r.text('market_country', { optional: true, pattern: CODE }) ?? market?.country ?? null,
    market_currency:
      r.text('market_currency', { optional: true, pattern: /^[A-Z]{3}$/ }) ?? market?.currency ?? '',
    symbol: symbol ?? '',
    name: r.text('name', { max: 300 }) ?? '',
    status: r.oneOf('status', ['active', 'inactive']) ?? 'active',
    tradable: r.bool('tradable'),
    marginable: r.bool('marginable'),
    shortable: r.bool('shortable'),
    easy_to_borrow: r.bool('easy_to_borrow'),
    fractionable: r.bool('fractionable'),
    fractional_eh_enabled: r.bool('fractional_eh_enabled', false),
    currency: r.text('currency', { pattern: /^[A-Z]{3}$/ }) ?? '',
    reference_price: r.decimal('reference_price', { positive: true }) ?? '0',
    bond: null,
  };
  const problems = [...r.problems];
  const isBond = assetClass !== null && BOND_CLASSES.includes(assetClass);
  const bond = record.bond;
  if (isBond) {
    if (typeof bond !== 'object' || bond === null) {
      problems.push(`bond: required for class ${assetClass}`);
    } else {
      row.bond = readBond(bond as Raw, problems);
    }
  } else if (bond !== undefined && bond !== null) {
    problems.push(`bond: only bonds, bills and notes carry bond attributes`);
  }
  if (problems.length > 0) {
    return { problems };
  }
  row.id = row.bond ? row.bond.cusip : listedAssetId(row.market, row.symbol);
  return { row };
}
