import { uuidV5 as coreUuidV5 } from 'src/core/ids/ids';

/**
 * Asset identifiers. Listed assets get a name-based uuid (RFC 4122 version 5) of `MARKET:SYMBOL` under
 * the namespace below, so reloading reference data, in any database, gives every asset the same id.
 * Bonds are identified by their CUSIP (spec, Asset: "for bonds it is the CUSIP").
 */
export const ASSET_ID_NAMESPACE = '4b0cf3a5-1f0e-4d8e-9a57-3f1b6e2d9c41';

export function uuidV5(name: string, namespace: string = ASSET_ID_NAMESPACE): string {
  return coreUuidV5(name, namespace);
}

export function listedAssetId(market: string, symbol: string): string {
  return uuidV5(`${market.toUpperCase()}:${symbol.toUpperCase()}`);
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

function charValue(c: string): number {
  if (c >= '0' && c <= '9') {
    return c.charCodeAt(0) - 48;
  }
  if (c >= 'A' && c <= 'Z') {
    return c.charCodeAt(0) - 55;
  }
  return { '*': 36, '@': 37, '#': 38 }[c] ?? NaN;
}

/** CUSIP check digit: modulus 10 "double add double" over the first eight characters. */
export function cusipCheckDigit(base: string): number {
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    const value = charValue(base[i]) * (i % 2 === 1 ? 2 : 1);
    sum += Math.floor(value / 10) + (value % 10);
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidCusip(value: string): boolean {
  return /^[0-9A-Z*@#]{8}[0-9]$/.test(value) && cusipCheckDigit(value) === Number(value[8]);
}

/** ISIN check digit: Luhn over the body with letters expanded to two digits (A=10 ... Z=35). */
export function isinCheckDigit(body: string): number {
  const digits = [...body].map((c) => String(charValue(c))).join('');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      d = d > 9 ? d - 9 : d;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidIsin(value: string): boolean {
  return /^[A-Z]{2}[0-9A-Z]{9}[0-9]$/.test(value) && isinCheckDigit(value.slice(0, 11)) === Number(value[11]);
}
