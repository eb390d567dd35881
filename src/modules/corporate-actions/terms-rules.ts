import Decimal from 'decimal.js';
import { ServiceError } from 'src/core/errors/service-error';
import {
  CORPORATE_ACTION_TYPES,
  CorporateActionTerms,
  CorporateActionType,
} from 'src/modules/corporate-actions/corporate-action.types';
import { assertUnreachable } from 'src/core/errors/assert-unreachable';

/** Terms of an announcement that are wrong or contradict each other: 400 naming the field. */
export class CorporateActionTermsError extends ServiceError {
  constructor(param: string, message: string, missing = false) {
    super(missing ? 'SVC-400-002' : 'SVC-400-001', message, param);
  }
}

/** Raw announcement fields as a file or a request carries them. */
export type RawTerms = Record<string, unknown>;

const TERM_FIELDS = [
  'cash_rate',
  'old_rate',
  'new_rate',
  'new_symbol',
  'new_asset_id',
  'payable_date',
] as const;
type TermField = (typeof TERM_FIELDS)[number];

/** Which of the type-specific fields each type takes and which it requires. */
function fieldsOf(type: CorporateActionType): { allowed: TermField[]; required: TermField[] } {
  switch (type) {
    case 'cash_dividend':
      return { allowed: ['cash_rate', 'payable_date'], required: ['cash_rate', 'payable_date'] };
    case 'stock_dividend':
    case 'stock_split':
    case 'reverse_split':
      return { allowed: ['old_rate', 'new_rate', 'payable_date'], required: ['old_rate', 'new_rate'] };
    case 'symbol_change':
      return { allowed: ['new_symbol'], required: ['new_symbol'] };
    case 'cash_merger':
      return { allowed: ['cash_rate', 'payable_date'], required: ['cash_rate'] };
    case 'stock_merger':
      return {
        allowed: ['new_asset_id', 'new_symbol', 'new_rate', 'old_rate', 'cash_rate', 'payable_date'],
        required: ['new_rate', 'old_rate'],
      };
    default:
      return assertUnreachable(type, 'corporate action type');
  }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A ticker as the asset catalogue writes them: letters, digits, `.`, `-` or `/`. */
const TICKER = /^[A-Z0-9][A-Z0-9./-]{0,31}$/;
const DECIMAL = /^\d{1,20}(\.\d{1,10})?$/;

function date(raw: RawTerms, field: string, required: boolean): string | null {
  const value = raw[field];
  if (value === undefined || value === null) {
    if (required) {
      throw new CorporateActionTermsError(field, `${field} is required (YYYY-MM-DD).`, true);
    }
    return null;
  }
  if (typeof value !== 'string' || !DATE.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw new CorporateActionTermsError(field, `${field} must be a calendar date (YYYY-MM-DD).`);
  }
  if (new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value) {
    throw new CorporateActionTermsError(field, `${field} is not a calendar date: '${value}'.`);
  }
  return value;
}

function rate(raw: RawTerms, field: string): string | null {
  const value = raw[field];
  if (value === undefined || value === null) {
    return null;
  }
  if (typeof value !== 'string' || !DECIMAL.test(value) || new Decimal(value).lte(0)) {
    throw new CorporateActionTermsError(
      field,
      `${field} must be a decimal string above zero, at most 10 decimals (e.g. "0.24").`,
    );
  }
  return new Decimal(value).toFixed();
}

function text(raw: RawTerms, field: string, max: number): string | null {
  const value = raw[field];
  if (value === undefined || value === null) {
    return null;
  }
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) {
    throw new CorporateActionTermsError(
      field,
      `${field} must be a non-empty string of at most ${max} characters.`,
    );
  }
  return value.trim();
}

function absent(raw: RawTerms, field: string): boolean {
  return raw[field] === undefined || raw[field] === null;
}

function ticker(raw: RawTerms): string | null {
  const value = text(raw, 'new_symbol', 32);
  if (value !== null && !TICKER.test(value.toUpperCase())) {
    throw new CorporateActionTermsError(
      'new_symbol',
      'new_symbol must be a ticker: letters, digits, ".", "-" or "/", at most 32 characters.',
    );
  }
  return value === null ? null : value.toUpperCase();
}

function metadata(raw: RawTerms): Record<string, string> {
  const value = raw.metadata;
  if (value === undefined || value === null) {
    return {};
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new CorporateActionTermsError('metadata', 'metadata must be an object of string values.');
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (
    entries.length > 50 ||
    entries.some(([k, v]) => typeof v !== 'string' || k.length > 40 || v.length > 500)
  ) {
    throw new CorporateActionTermsError(
      'metadata',
      'metadata takes at most 50 keys of up to 40 characters with string values of up to 500.',
    );
  }
  return value as Record<string, string>;
}

/** The type of raw terms, or 400 naming `type`. */
export function typeOf(raw: RawTerms): CorporateActionType {
  const type = raw.type;
  if (typeof type !== 'string' || !(CORPORATE_ACTION_TYPES as readonly string[]).includes(type)) {
    throw new CorporateActionTermsError('type', `type must be one of ${CORPORATE_ACTION_TYPES.join(', ')}.`);
  }
  return type as CorporateActionType;
}

/**
 * Validates the terms of an announcement (docs/decisions.md, Corporate actions): type-specific fields
 * present and no others, rates above zero and in the type's direction, dates consistent.
 */
export function validateTerms(raw: RawTerms): CorporateActionTerms {
  const type = typeOf(raw);
  const { allowed, required } = fieldsOf(type);
  for (const field of TERM_FIELDS) {
    const present = raw[field] !== undefined && raw[field] !== null;
    if (present && !allowed.includes(field)) {
      throw new CorporateActionTermsError(field, `${field} does not belong to a ${type}.`);
    }
    if (!present && required.includes(field)) {
      throw new CorporateActionTermsError(field, `${field} is required for a ${type}.`, true);
    }
  }
  if (type === 'stock_merger' && absent(raw, 'new_asset_id') && absent(raw, 'new_symbol')) {
    throw new CorporateActionTermsError(
      'new_asset_id',
      'A stock_merger names its acquirer: new_asset_id or new_symbol.',
      true,
    );
  }
  const exDate = date(raw, 'ex_date', true) as string;
  const recordDate = date(raw, 'record_date', false) ?? exDate;
  const payableDate = date(raw, 'payable_date', false);
  const declarationDate = date(raw, 'declaration_date', false);
  if (recordDate < exDate) {
    throw new CorporateActionTermsError('record_date', 'record_date must be on or after ex_date.');
  }
  if (payableDate !== null && payableDate < exDate) {
    throw new CorporateActionTermsError('payable_date', 'payable_date must be on or after ex_date.');
  }
  if (declarationDate !== null && declarationDate > exDate) {
    throw new CorporateActionTermsError('declaration_date', 'declaration_date must be on or before ex_date.');
  }
  const terms: CorporateActionTerms = {
    type,
    declaration_date: declarationDate,
    ex_date: exDate,
    record_date: recordDate,
    payable_date: payableDate,
    cash_rate: rate(raw, 'cash_rate'),
    old_rate: rate(raw, 'old_rate'),
    new_rate: rate(raw, 'new_rate'),
    new_symbol: ticker(raw),
    new_asset_id: text(raw, 'new_asset_id', 64),
    description: text(raw, 'description', 500),
    metadata: metadata(raw),
  };
  checkDirection(terms);
  return terms;
}

function checkDirection(terms: CorporateActionTerms): void {
  if (terms.old_rate === null || terms.new_rate === null) {
    return;
  }
  const more = new Decimal(terms.new_rate).gt(terms.old_rate);
  if ((terms.type === 'stock_split' || terms.type === 'stock_dividend') && !more) {
    throw new CorporateActionTermsError('new_rate', `A ${terms.type} needs new_rate above old_rate.`);
  }
  if (terms.type === 'reverse_split' && (more || new Decimal(terms.new_rate).eq(terms.old_rate))) {
    throw new CorporateActionTermsError('new_rate', 'A reverse_split needs new_rate below old_rate.');
  }
}
