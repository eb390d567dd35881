/**
 * The specification's resource tables, written down once: investment-service-interface.md, section
 * by section ("Resources and their fields", "Endpoints", "Errors", "Limits", "Authentication").
 * test/contract/spec-tables.spec.ts holds openapi/openapi.yaml to them.
 *
 * How the spec's wording is transcribed:
 * - `type`: the spec's type; `date` and `date-time` are strings of that format, `uuid` a string of
 *   format uuid. No `type` where the spec names a field without giving one.
 * - `nullable`: the spec says "or null" (or "nullable"); `maybeNull`: null is allowed but not required
 *   of the document ("Booleans (some nullable)"; the envelope's `created`, which may never be null).
 * - `required`: the spec's Required column says yes (only some tables have one).
 * - `enum`: a closed list of values ("One of", "Values", a status list). `values`: values the spec
 *   lists as examples ("values listed", "such as", "and others"); the document must allow each.
 */
import { ACCOUNT_TABLES } from './spec-account-tables';
import { ASSET_CLASSES, ORDER_STATUSES } from './spec-values';
import type { SpecField, SpecTable } from './spec-types';

export * from './spec-types';
export { OPERATIONS, LIMITS, SECURITY_SCHEMES } from './spec-operations';

/** Resource envelope: every envelope-style resource (a schema whose `object` is one fixed value). */
export const RESOURCE_ENVELOPE: Record<string, SpecField> = {
  id: { type: 'string' },
  object: { type: 'string', required: true },
  created: { type: 'integer', maybeNull: true },
  livemode: { type: 'boolean', required: true },
  metadata: { type: 'object' },
};

/** List envelope: every schema whose `object` is always `list`. */
export const LIST_ENVELOPE: Record<string, SpecField> = {
  object: { type: 'string', required: true, enum: ['list'] },
  url: { type: 'string', required: true },
  has_more: { type: 'boolean', required: true },
  data: { type: 'array', required: true },
};

const ASSET_FLAGS = ['tradable', 'marginable', 'shortable', 'easy_to_borrow', 'fractionable'] as const;

export const RESOURCE_TABLES: SpecTable[] = [
  {
    title: 'Asset (object: asset)',
    schema: 'AssetDto',
    fields: {
      ...RESOURCE_ENVELOPE,
      id: { type: 'string', required: true },
      class: { type: 'string', required: true, enum: ASSET_CLASSES },
      country: { type: 'string', nullable: true, required: true },
      market: {
        type: 'string',
        required: true,
        values: ['XNAS', 'XNYS', 'BATS', 'ARCA', 'OTC', 'XNSA', 'XNAI'],
      },
      market_name: { type: 'string', required: true, values: ['NASDAQ', 'NYSE', 'NGX', 'NSE'] },
      market_country: { type: 'string', nullable: true, required: true },
      market_currency: { type: 'string', required: true },
      symbol: { type: 'string', required: true },
      name: { type: 'string', required: true },
      status: { type: 'string', required: true, enum: ['active', 'inactive'] },
      ...Object.fromEntries(ASSET_FLAGS.map((flag) => [flag, { type: 'boolean', required: true }])),
      fractional_eh_enabled: { type: 'boolean', required: true },
      currency: { type: 'string', required: true },
      price: { type: 'number' },
      change: { type: 'number' },
      changePercent: { type: 'number' },
      previousClose: { type: 'number' },
      bidPrice: { type: 'number' },
      askPrice: { type: 'number' },
      price_timestamp: { type: 'date-time', nullable: true },
      last_synced_at: { type: 'date-time', nullable: true },
      bond: { type: 'object' },
    },
  },
  {
    title: 'Bond attributes',
    schema: 'BondAttributesDto',
    fields: {
      cusip: { type: 'string' },
      isin: { type: 'string' },
      bond_status: { type: 'string', enum: ['outstanding', 'pre_issuance', 'matured'] },
      bond_type: { type: 'string', enum: ['treasury', 'corporate', 'municipal', 'agency', 'sovereign'] },
      bond_subtype: { type: 'string' },
      maturity_date: { type: 'date' },
      issue_date: { type: 'date' },
      dated_date: { type: 'date' },
      first_coupon_date: { type: 'date' },
      next_coupon_date: { type: 'date' },
      last_coupon_date: { type: 'date' },
      coupon_rate: { type: 'string' },
      coupon_type: { type: 'string', values: ['fixed', 'zero', 'floating'] },
      coupon_frequency: { type: 'integer', enum: [1, 2, 4, 12, 0] },
      accrual_basis: { type: 'string', values: ['ACT/ACT', 'ACT/360', '30/360'] },
      accrued_interest: { type: 'number' },
      face_value: { type: 'string' },
      min_increment: { type: 'string' },
      settlement_period: { type: 'integer' },
      close_price_date: { type: 'date' },
      yield_to_maturity: { type: 'number' },
      yield_to_worst: { type: 'number' },
      callable: { type: 'boolean' },
      puttable: { type: 'boolean' },
      convertible: { type: 'boolean' },
      perpetual: { type: 'boolean' },
      next_call_date: { type: 'date' },
      next_call_price: { type: 'number' },
      call_type: { type: 'string' },
      issuer: { type: 'string' },
      ticker: { type: 'string' },
      sector: { type: 'string' },
      seniority: { type: 'string' },
      country_domicile: { type: 'string' },
      rating: { type: 'string' },
      sp_rating: { type: 'string' },
      sp_outlook: { type: 'string', enum: ['positive', 'negative', 'stable', 'developing'] },
    },
  },
  ...['ApiKeyDto', 'CreatedApiKeyDto'].map((schema): SpecTable => ({
    title: 'API key (object: api_key)',
    schema,
    fields: {
      id: { type: 'string' },
      object: { type: 'string', enum: ['api_key'] },
      created: { type: 'integer', nullable: true },
      livemode: { type: 'boolean' },
      account_id: { type: 'string' },
      name: { type: 'string' },
      environment: { type: 'string', enum: ['TEST', 'PRODUCTION'] },
      status: { type: 'string', enum: ['active', 'revoked', 'expired'] },
      public_key: { type: 'string' },
      expires_at: { type: 'date-time', nullable: true },
      metadata: { type: 'object' },
    },
  })),
  {
    title: 'Order (account-style record)',
    schema: 'AccountOrderDto',
    fields: {
      id: { type: 'string' },
      account_id: { type: 'string' },
      symbol: { type: 'string' },
      currency: { type: 'string' },
      qty: { type: 'string' },
      notional: { type: 'string' },
      side: { type: 'string', enum: ['buy', 'sell'] },
      type: { type: 'string', enum: ['market', 'limit', 'stop', 'stop_limit', 'trailing_stop'] },
      time_in_force: { type: 'string', enum: ['day', 'gtc', 'opg', 'cls', 'ioc', 'fok'] },
      limit_price: { type: 'string' },
      stop_price: { type: 'string' },
      trail_percent: { type: 'string' },
      trail_price: { type: 'string' },
      extended_hours: { type: 'boolean' },
      client_order_id: { type: 'string' },
      status: { type: 'string', enum: ORDER_STATUSES },
      filled_qty: { type: 'string' },
      remaining_qty: { type: 'string' },
      average_price: { type: 'string' },
      commission: { type: 'string' },
      commission_type: { type: 'string', enum: ['notional', 'qty', 'bps'] },
      submitted_at: { type: 'date-time' },
      filled_at: { type: 'date-time', nullable: true },
      canceled_at: { type: 'date-time', nullable: true },
      reject_reason: { type: 'string', nullable: true },
    },
  },
  {
    title: 'Wallet transaction',
    schema: 'WalletTransactionDto',
    fields: {
      transaction_id: { type: 'string' },
      account_id: { type: 'string' },
      type: { type: 'string', enum: ['deposit', 'withdrawal'] },
      status: { type: 'string', enum: ['pending', 'processing', 'settled', 'failed', 'canceled'] },
      amount: { type: 'string' },
      currency: { type: 'string' },
      funding_type: { type: 'string', enum: ['fiat', 'crypto'] },
      funding_details: { type: 'object' },
      description: { type: 'string' },
      external_reference_id: { type: 'string' },
      fee: { type: 'string' },
      net_amount: { type: 'string' },
      created_at: { type: 'date-time' },
      settled_at: { type: 'date-time', nullable: true },
      failed_at: { type: 'date-time', nullable: true },
      failure_reason: { type: 'string', nullable: true },
    },
  },
  {
    title: 'Position',
    schema: 'PositionDto',
    fields: {
      id: { type: 'string' },
      account_id: { type: 'string' },
      symbol: { type: 'string' },
      asset_id: { type: 'string' },
      quantity: { type: 'string' },
      average_cost_basis: { type: 'string' },
      total_cost_basis: { type: 'string' },
      current_price: { type: 'string' },
      last_transaction_at: { type: 'date-time' },
      created_at: { type: 'date-time' },
      updated_at: { type: 'date-time' },
    },
  },
  ...ACCOUNT_TABLES,
  {
    title: 'Assets, description B (response)',
    schema: 'LegacyAssetSearchResultDto',
    fields: {
      status: { type: 'string', enum: ['success'] },
      data: { type: 'array', items: { type: 'object' } },
      count: { type: 'integer' },
    },
  },
  {
    title: 'Assets, description B (data items)',
    schema: 'LegacyAssetDto',
    fields: {
      id: { type: 'string' },
      class: { type: 'string', enum: ASSET_CLASSES },
      market: { type: 'string', values: ['XNAS', 'XNYS', 'BATS', 'ARCA', 'OTC', 'XNSA', 'XNAI'] },
      symbol: { type: 'string' },
      name: { type: 'string' },
      status: { type: 'string', enum: ['active', 'inactive'] },
      ...Object.fromEntries(ASSET_FLAGS.map((flag) => [flag, { type: 'boolean' }])),
    },
  },
  {
    title: 'Error envelope (the object under `error`)',
    schema: 'ErrorBody',
    fields: {
      type: {
        type: 'string',
        required: true,
        enum: [
          'invalid_request_error',
          'authentication_error',
          'permission_error',
          'not_found_error',
          'conflict_error',
          'idempotency_error',
          'rate_limit_error',
          'api_error',
        ],
      },
      code: { type: 'string', required: true },
      message: { type: 'string', required: true },
      param: { type: 'string' },
      doc_url: { type: 'string' },
      request_log_url: { type: 'string' },
    },
  },
  {
    title: 'Legacy error body',
    schema: 'LegacyErrorDto',
    fields: {
      status: { type: 'string', enum: ['error'] },
      code: { type: 'string', enum: ['PRODUCT_NOT_ENABLED'] },
      message: { type: 'string' },
    },
  },
];

/** The field names of the spec's table titled `title`, in the spec's order. */
export function specFieldNames(title: string): string[] {
  const table = RESOURCE_TABLES.find((t) => t.title === title);
  if (!table) {
    throw new Error(`No spec table titled ${title}`);
  }
  return Object.keys(table.fields);
}

/** Every bond attribute of the spec's table, in its order. */
export const BOND_KEYS = specFieldNames('Bond attributes');
