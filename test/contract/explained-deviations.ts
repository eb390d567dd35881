/**
 * Where the committed document departs from the spec's tables on purpose. Each entry lists the
 * differences exactly as SpecConformance words them, the docs/decisions.md section that explains
 * them (`## <section>`), and what that section must name for the explanation to count. Nothing
 * else may differ; an entry the document no longer shows must go.
 */
/** Bond attributes that do not apply are null, not absent. */
const NULLABLE_BOND_FIELDS = [
  'bond_subtype',
  'maturity_date',
  'issue_date',
  'dated_date',
  'first_coupon_date',
  'next_coupon_date',
  'last_coupon_date',
  'next_call_date',
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
];

export const EXPLAINED: Array<{ section: string; names: string[]; differences: string[] }> = [
  // Bond attributes that do not apply are null, not absent.
  {
    section: 'Assets and asset search',
    names: NULLABLE_BOND_FIELDS,
    differences: NULLABLE_BOND_FIELDS.map((field) => `BondAttributesDto.${field}: nullable (spec: not null)`),
  },
  // The secret of a new key is shown once, on the created key only.
  {
    section: 'Investor API keys',
    names: ['secret'],
    differences: ["CreatedApiKeyDto.secret: not in the spec's table"],
  },
  // Order records: prices that do not apply are null; the order list's extras and offset bound.
  {
    section: 'Trading and positions',
    names: [
      'limit_price',
      'stop_price',
      'trail_percent',
      'trail_price',
      'remaining_qty',
      'cancel_reason',
      'updated_at',
      'updated_since',
      'offset',
      'currency',
      'market_value',
      'unrealized_pl',
      'hwm',
    ],
    differences: [
      'AccountOrderDto.limit_price: nullable (spec: not null)',
      'AccountOrderDto.stop_price: nullable (spec: not null)',
      'AccountOrderDto.trail_percent: nullable (spec: not null)',
      'AccountOrderDto.trail_price: nullable (spec: not null)',
      'AccountOrderDto.remaining_qty: nullable (spec: not null)',
      "AccountOrderDto.cancel_reason: not in the spec's table",
      "AccountOrderDto.updated_at: not in the spec's table",
      'GET /v1/trading/accounts/{account_id}/orders query updated_since: not in the spec',
      'GET /v1/trading/accounts/{account_id}/orders query offset: maximum 1000000 (spec: none)',
      "AccountOrderDto.hwm: not in the spec's table",
      "PositionDto.currency: not in the spec's table",
      "PositionDto.market_value: not in the spec's table",
      "PositionDto.unrealized_pl: not in the spec's table",
    ],
  },
  // Wallet transactions: optional texts are null when not given; both views' ids; fiat only.
  {
    section: 'Funding sources, deposits and withdrawals',
    names: [
      'description',
      'external_reference_id',
      'deposit_id',
      'withdrawal_id',
      'canceled_at',
      'funding_type',
    ],
    differences: [
      'WalletTransactionDto.funding_type: enumeration lacks crypto',
      'WalletTransactionDto.description: nullable (spec: not null)',
      'WalletTransactionDto.external_reference_id: nullable (spec: not null)',
      "WalletTransactionDto.canceled_at: not in the spec's table",
      "WalletTransactionDto.deposit_id: not in the spec's table",
      "WalletTransactionDto.withdrawal_id: not in the spec's table",
    ],
  },
  // Financial plan: linked goals, projections, unreachable goals, nominal money, earlier versions.
  {
    section: 'Wealth: the financial plan',
    names: [
      'linked_to_account',
      'projection',
      'projected_completion_date',
      'inflation_assumption',
      '?version=N',
    ],
    differences: [
      "GoalDto.linked_to_account: not in the spec's table",
      "GoalDto.projection: not in the spec's table",
      'GoalDto.projected_completion_date: nullable (spec: not null)',
      'InvestmentOutlookViewDto.inflation_assumption: nullable (spec: not null)',
      'GET /v1/wealth/accounts/{account_id}/financial-plan query version: not in the spec',
    ],
  },
  // Interest history entries carry the envelope keys.
  {
    section: 'Cash sweep and the Cash Management add-on',
    names: ['object', 'livemode'],
    differences: [
      "InterestHistoryEntryDto.object: not in the spec's table",
      "InterestHistoryEntryDto.livemode: not in the spec's table",
    ],
  },
  // Webhook endpoints take partner metadata and page like every envelope list.
  {
    section: 'Events and webhooks',
    names: ['metadata', 'limit', 'starting_after', 'ending_before'],
    differences: [
      "CreateWebhookDto.metadata: not in the spec's table",
      'GET /v1/webhooks query limit: not in the spec',
      'GET /v1/webhooks query starting_after: not in the spec',
      'GET /v1/webhooks query ending_before: not in the spec',
    ],
  },
];

/** The text of docs/decisions.md's `## <heading>` section, up to the next one. */
export function sectionOf(decisions: string, heading: string): string | undefined {
  const start = decisions.indexOf(`\n## ${heading}\n`);
  if (start === -1) {
    return undefined;
  }
  const next = decisions.indexOf('\n## ', start + 1);
  return decisions.slice(start, next === -1 ? undefined : next);
}
