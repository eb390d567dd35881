import { readFileSync } from 'fs';
import { join } from 'path';
import { BOND_KEYS } from 'test/contract/spec-tables';

/**
 * Structural and identifier checks for the asset master shipped in this folder.
 * The JSON files are plain data: this spec is what keeps them consistent.
 */

type Row = Record<string, unknown>;

const usEquities = load('us-equities.json');
const africaEquities = load('africa-equities.json');
const crypto = load('crypto.json');
const bonds = load('bonds.json');
const all = [...usEquities, ...africaEquities, ...crypto, ...bonds];

describe('identifier check digits', () => {
  it('accepts known-good identifiers', () => {
    expect(isValidCusip('037833100')).toBe(true); // Apple Inc. common stock
    expect(isValidCusip('91282CLW9')).toBe(true);
    expect(isValidIsin('US0378331005')).toBe(true);
    expect(isValidIsin('US91282CLW90')).toBe(true);
  });

  it('rejects corrupted identifiers', () => {
    expect(isValidCusip('037833101')).toBe(false);
    expect(isValidCusip('91282CLW8')).toBe(false);
    expect(isValidIsin('US0378331006')).toBe(false);
    expect(isValidIsin('US91282CLW91')).toBe(false);
  });
});

describe('reference data: asset records', () => {
  it.each([
    ['us-equities.json', usEquities],
    ['africa-equities.json', africaEquities],
    ['crypto.json', crypto],
    ['bonds.json', bonds],
  ])('%s is a non-empty array of objects', (_file, rows) => {
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(typeof row).toBe('object');
      expect(row).not.toBeNull();
    }
  });

  it('every record has every asset key with the right type and an allowed value', () => {
    const problems: string[] = [];
    for (const row of all) {
      const id = `${String(row.market)}:${String(row.symbol)}`;
      for (const key of ASSET_KEYS) {
        if (!(key in row)) {
          problems.push(`${id} missing ${key}`);
        }
      }
      for (const key of STRING_KEYS) {
        if (typeof row[key] !== 'string' || (row[key] as string).length === 0) {
          problems.push(`${id} ${key} must be a non-empty string`);
        }
      }
      for (const key of BOOLEAN_KEYS) {
        if (typeof row[key] !== 'boolean') {
          problems.push(`${id} ${key} must be a boolean`);
        }
      }
      if (!CLASSES.includes(row.class as string)) {
        problems.push(`${id} class ${String(row.class)}`);
      }
      if (!['active', 'inactive'].includes(row.status as string)) {
        problems.push(`${id} status ${String(row.status)}`);
      }
      const market = MARKETS[row.market as string];
      if (!market) {
        problems.push(`${id} unknown market`);
      } else {
        if (row.market_name !== market.name) {
          problems.push(`${id} market_name ${String(row.market_name)}`);
        }
        if (row.market_country !== market.country) {
          problems.push(`${id} market_country ${String(row.market_country)}`);
        }
        if (row.market_currency !== market.currency) {
          problems.push(`${id} market_currency ${String(row.market_currency)}`);
        }
        if (row.currency !== market.currency) {
          problems.push(`${id} currency ${String(row.currency)}`);
        }
      }
      if (row.market === 'CRYPTO') {
        if (row.country !== null) {
          problems.push(`${id} crypto country must be null`);
        }
      } else if (typeof row.country !== 'string' || !/^[a-z]{2}$/.test(row.country)) {
        problems.push(`${id} country must be lower-case ISO 3166-1 alpha-2`);
      }
      if (typeof row.reference_price !== 'string' || !DECIMAL.test(row.reference_price)) {
        problems.push(`${id} reference_price must be a decimal string`);
      } else if (!(Number(row.reference_price) > 0)) {
        problems.push(`${id} reference_price must be positive`);
      }
      const extra = Object.keys(row).filter((k) => !ASSET_KEYS.includes(k) && k !== 'bond');
      if (extra.length > 0) {
        problems.push(`${id} unexpected keys ${extra.join(',')}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('symbols are unique within each market', () => {
    const seen = new Set<string>();
    const duplicates: string[] = [];
    for (const row of all) {
      const key = `${String(row.market)}:${String(row.symbol)}`;
      if (seen.has(key)) {
        duplicates.push(key);
      }
      seen.add(key);
    }
    expect(duplicates).toEqual([]);
  });
});

describe('reference data: coverage', () => {
  const count = (rows: Row[], market: string) => rows.filter((r) => r.market === market).length;

  it('has at least 500 US equities and ETFs across every US venue', () => {
    expect(usEquities.length).toBeGreaterThanOrEqual(500);
    for (const market of ['XNAS', 'XNYS', 'ARCA', 'BATS', 'OTC']) {
      expect(count(usEquities, market)).toBeGreaterThan(0);
    }
    for (const row of usEquities) {
      expect(['equity', 'etf']).toContain(row.class);
    }
    expect(usEquities.filter((r) => r.class === 'etf').length).toBeGreaterThanOrEqual(60);
    expect(count(usEquities, 'BATS')).toBeGreaterThanOrEqual(5);
    expect(count(usEquities, 'OTC')).toBeGreaterThanOrEqual(10);
  });

  it('keeps OTC names cash-only', () => {
    for (const row of usEquities.filter((r) => r.market === 'OTC')) {
      expect([row.marginable, row.shortable, row.easy_to_borrow, row.fractionable]).toEqual([
        false,
        false,
        false,
        false,
      ]);
    }
  });

  it('has the largest NGX and NSE names', () => {
    expect(count(africaEquities, 'XNSA')).toBeGreaterThanOrEqual(25);
    expect(count(africaEquities, 'XNAI')).toBeGreaterThanOrEqual(20);
    for (const row of africaEquities) {
      expect(row.class).toBe('equity');
      expect(row.country).toBe(row.market === 'XNSA' ? 'ng' : 'ke');
      expect([row.marginable, row.shortable, row.easy_to_borrow, row.fractionable]).toEqual([
        false,
        false,
        false,
        false,
      ]);
    }
  });

  it('has at least 20 crypto pairs against USD', () => {
    expect(crypto.length).toBeGreaterThanOrEqual(20);
    for (const row of crypto) {
      expect(row.class).toBe('cryptocurrency');
      expect(row.market).toBe('CRYPTO');
      expect(row.market_country).toBeNull();
      expect(row.fractionable).toBe(true);
      expect(row.symbol).toMatch(/^[A-Z0-9]+\/USD$/);
    }
  });

  it('has treasury bills, notes and bonds and investment-grade corporates', () => {
    const treasuries = bonds.filter((r) => (r.bond as Row).bond_type === 'treasury');
    expect(treasuries.filter((r) => r.class === 'bill').length).toBeGreaterThanOrEqual(8);
    expect(treasuries.filter((r) => r.class === 'note').length).toBeGreaterThanOrEqual(8);
    expect(treasuries.filter((r) => r.class === 'bond').length).toBeGreaterThanOrEqual(6);
    expect(bonds.filter((r) => (r.bond as Row).bond_type === 'corporate').length).toBeGreaterThanOrEqual(12);
  });
});

describe('reference data: bonds', () => {
  const rows = bonds.map((r) => ({ row: r, bond: r.bond as Row, id: String(r.symbol) }));

  it('every bond record carries every bond attribute', () => {
    const problems: string[] = [];
    for (const { row, bond, id } of rows) {
      if (!['bond', 'bill', 'note'].includes(row.class as string)) {
        problems.push(`${id} class ${String(row.class)}`);
      }
      if (row.market !== 'OTC') {
        problems.push(`${id} market ${String(row.market)}`);
      }
      if (typeof bond !== 'object' || bond === null) {
        problems.push(`${id} has no bond object`);
        continue;
      }
      for (const key of BOND_KEYS) {
        if (!(key in bond)) {
          problems.push(`${id} bond.${key} missing`);
        }
      }
      const extra = Object.keys(bond).filter((k) => !BOND_KEYS.includes(k));
      if (extra.length > 0) {
        problems.push(`${id} unexpected bond keys ${extra.join(',')}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('bond attributes have the right types and allowed values', () => {
    const problems: string[] = [];
    const check = (ok: boolean, message: string) => {
      if (!ok) {
        problems.push(message);
      }
    };
    for (const { row, bond, id } of rows) {
      check(['outstanding', 'pre_issuance', 'matured'].includes(bond.bond_status as string), `${id} bond_status`);
      check(
        ['treasury', 'corporate', 'municipal', 'agency', 'sovereign'].includes(bond.bond_type as string),
        `${id} bond_type`,
      );
      check(typeof bond.bond_subtype === 'string', `${id} bond_subtype`);
      check(['fixed', 'zero', 'floating'].includes(bond.coupon_type as string), `${id} coupon_type`);
      check([0, 1, 2, 4, 12].includes(bond.coupon_frequency as number), `${id} coupon_frequency`);
      check(['ACT/ACT', '30/360', 'ACT/360', 'ACT/365'].includes(bond.accrual_basis as string), `${id} accrual_basis`);
      check(['positive', 'negative', 'stable', 'developing'].includes(bond.sp_outlook as string), `${id} sp_outlook`);
      for (const key of ['maturity_date', 'issue_date', 'dated_date', 'close_price_date']) {
        check(isDate(bond[key]), `${id} ${key} must be a date`);
      }
      for (const key of ['first_coupon_date', 'next_coupon_date', 'last_coupon_date', 'next_call_date']) {
        check(bond[key] === null || isDate(bond[key]), `${id} ${key} must be a date or null`);
      }
      for (const key of ['coupon_rate', 'face_value', 'min_increment']) {
        check(typeof bond[key] === 'string' && DECIMAL.test(bond[key] as string), `${id} ${key} decimal string`);
      }
      check(
        bond.next_call_price === null ||
          (typeof bond.next_call_price === 'string' && DECIMAL.test(bond.next_call_price)),
        `${id} next_call_price`,
      );
      check(typeof bond.accrued_interest === 'number' && bond.accrued_interest >= 0, `${id} accrued_interest`);
      // Spec, Bond attributes: T+N business days, 1 for treasuries, 2 for corporates.
      check(
        bond.settlement_period === ({ treasury: 1, corporate: 2 } as Record<string, number>)[bond.bond_type as string],
        `${id} settlement_period must be 1 for treasuries, 2 for corporates`,
      );
      for (const key of ['yield_to_maturity', 'yield_to_worst']) {
        check(
          bond[key] === null ? bond.bond_status === 'matured' : typeof bond[key] === 'number',
          `${id} ${key} must be a number (null only once matured)`,
        );
      }
      for (const key of ['callable', 'puttable', 'convertible', 'perpetual']) {
        check(typeof bond[key] === 'boolean', `${id} ${key} must be a boolean`);
      }
      if (bond.callable === false) {
        check(bond.next_call_date === null && bond.next_call_price === null, `${id} non-callable has a call`);
      }
      for (const key of ['call_type', 'issuer', 'ticker', 'sector', 'seniority', 'country_domicile', 'rating']) {
        check(typeof bond[key] === 'string' && (bond[key] as string).length > 0, `${id} ${key}`);
      }
      check(typeof bond.sp_rating === 'string', `${id} sp_rating`);
      check(bond.country_domicile === 'US' && row.country === 'us', `${id} domicile`);
      check(row.class === (bond.bond_type === 'corporate' ? 'bond' : bond.bond_subtype), `${id} class/subtype`);
    }
    expect(problems).toEqual([]);
  });

  it('CUSIP and ISIN check digits are valid and consistent', () => {
    const problems: string[] = [];
    const cusips = new Set<string>();
    for (const { bond, id } of rows) {
      const cusip = bond.cusip as string;
      const isin = bond.isin as string;
      if (!isValidCusip(cusip)) {
        problems.push(`${id} CUSIP ${cusip} check digit`);
      }
      if (!isValidIsin(isin)) {
        problems.push(`${id} ISIN ${isin} check digit`);
      }
      if (isin.slice(0, 11) !== `US${cusip}`) {
        problems.push(`${id} ISIN ${isin} does not wrap CUSIP ${cusip}`);
      }
      if (cusips.has(cusip)) {
        problems.push(`${id} duplicate CUSIP ${cusip}`);
      }
      cusips.add(cusip);
    }
    expect(problems).toEqual([]);
  });

  it('treasury CUSIPs use the Treasury issuer prefixes', () => {
    const prefixes: Record<string, string[]> = {
      bill: ['912797'],
      note: ['91282C', '912828'],
      bond: ['912810'],
    };
    for (const { bond, id } of rows.filter((r) => r.bond.bond_type === 'treasury')) {
      const allowed = prefixes[bond.bond_subtype as string];
      expect({ id, ok: allowed?.some((p) => (bond.cusip as string).startsWith(p)) ?? false }).toEqual({
        id,
        ok: true,
      });
    }
  });

  it('zero coupons and only zero coupons have a coupon rate of "0"', () => {
    for (const { bond, id } of rows) {
      const zero = bond.coupon_type === 'zero';
      expect({ id, rate: zero ? bond.coupon_rate : Number(bond.coupon_rate) > 0 }).toEqual({
        id,
        rate: zero ? '0' : true,
      });
      expect({ id, frequency: zero ? bond.coupon_frequency === 0 : Number(bond.coupon_frequency) > 0 }).toEqual({
        id,
        frequency: true,
      });
    }
  });

  it('dates are ordered: issue before maturity, coupons inside the life of the bond', () => {
    const problems: string[] = [];
    for (const { bond, id } of rows) {
      const issue = bond.issue_date as string;
      const dated = bond.dated_date as string;
      const maturity = bond.maturity_date as string;
      if (!(maturity > issue) || !(maturity > dated)) {
        problems.push(`${id} maturity must follow issue`);
      }
      for (const key of ['first_coupon_date', 'next_coupon_date', 'last_coupon_date']) {
        const value = bond[key] as string | null;
        if (value !== null && (value <= dated || value > maturity)) {
          problems.push(`${id} ${key} outside the bond's life`);
        }
      }
      if (bond.bond_status === 'matured' && maturity > (bond.close_price_date as string)) {
        problems.push(`${id} matured after its close price date`);
      }
      if (bond.bond_status === 'outstanding' && maturity <= (bond.close_price_date as string)) {
        problems.push(`${id} outstanding but already matured`);
      }
    }
    expect(problems).toEqual([]);
  });
});

/** One JSON file of this folder, which must hold an array. */
function load(file: string): Row[] {
  const parsed: unknown = JSON.parse(readFileSync(join(__dirname, file), 'utf8'));
  if (!Array.isArray(parsed)) {
    throw new Error(`${file} must contain a JSON array`);
  }
  return parsed as Row[];
}

const CLASSES = [
  'equity',
  'etf',
  'bond',
  'bill',
  'note',
  'mutual_fund',
  'derivative',
  'cryptocurrency',
  'commodity',
  'real_estate',
  'cash',
];

const MARKETS: Record<string, { name: string; country: string | null; currency: string }> = {
  XNAS: { name: 'NASDAQ', country: 'US', currency: 'USD' },
  XNYS: { name: 'NYSE', country: 'US', currency: 'USD' },
  ARCA: { name: 'NYSE Arca', country: 'US', currency: 'USD' },
  BATS: { name: 'Cboe BZX', country: 'US', currency: 'USD' },
  OTC: { name: 'OTC Markets', country: 'US', currency: 'USD' },
  XNSA: { name: 'NGX', country: 'NG', currency: 'NGN' },
  XNAI: { name: 'NSE', country: 'KE', currency: 'KES' },
  CRYPTO: { name: 'CRYPTO', country: null, currency: 'USD' },
};

const STRING_KEYS = ['class', 'market', 'market_name', 'market_currency', 'symbol', 'name', 'status', 'currency'];
const BOOLEAN_KEYS = [
  'tradable',
  'marginable',
  'shortable',
  'easy_to_borrow',
  'fractionable',
  'fractional_eh_enabled',
];
const NULLABLE_STRING_KEYS = ['country', 'market_country'];
const ASSET_KEYS = [...STRING_KEYS, ...BOOLEAN_KEYS, ...NULLABLE_STRING_KEYS, 'reference_price'];


const DECIMAL = /^\d+(\.\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const isDate = (value: unknown): value is string =>
  typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

const charValue = (c: string): number => {
  if (c >= '0' && c <= '9') {
    return c.charCodeAt(0) - 48;
  }
  if (c >= 'A' && c <= 'Z') {
    return c.charCodeAt(0) - 55;
  }
  const special: Record<string, number> = { '*': 36, '@': 37, '#': 38 };
  if (c in special) {
    return special[c];
  }
  throw new Error(`invalid CUSIP character ${c}`);
};

/** Modulus 10 "double add double" check digit over the first eight characters. */
const cusipCheckDigit = (base: string): number => {
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    let v = charValue(base[i]);
    if (i % 2 === 1) {
      v *= 2;
    }
    sum += Math.floor(v / 10) + (v % 10);
  }
  return (10 - (sum % 10)) % 10;
};

const isValidCusip = (cusip: string): boolean =>
  /^[0-9A-Z*@#]{8}[0-9]$/.test(cusip) && cusipCheckDigit(cusip) === Number(cusip[8]);

/** Luhn check digit over the ISIN body with letters expanded to two digits (A=10 ... Z=35). */
const isinCheckDigit = (body: string): number => {
  const digits = body
    .split('')
    .map((c) => String(charValue(c)))
    .join('');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) {
        d -= 9;
      }
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
};

const isValidIsin = (isin: string): boolean =>
  /^[A-Z]{2}[0-9A-Z]{9}[0-9]$/.test(isin) && isinCheckDigit(isin.slice(0, 11)) === Number(isin[11]);
