/** Value lists the spec repeats in several tables. */

export const ASSET_CLASSES = [
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
] as const;
export const ORDER_STATUSES = ['accepted', 'filled', 'partially_filled', 'canceled', 'rejected'] as const;
