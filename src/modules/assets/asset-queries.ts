import type { PriceAdjustment } from 'src/modules/pricing/price-source';
import { ASSET_COLUMNS, BOND_DATE_COLUMNS, BOND_TEXT_COLUMNS } from 'src/modules/assets/import/asset-record';
import type { AssetClass } from 'src/modules/pricing/price-source';

/**
 * SQL of asset reads, kept in one place so the benchmark's bare server runs exactly the text the
 * service runs. Every read joins the bond terms and the caller's test-mode price override.
 */

const ASSET_READ_COLUMNS = [...ASSET_COLUMNS, 'last_synced_at'];

/** One row of an asset read: asset columns, bond columns prefixed `b_`, the override if any. */
export interface AssetQueryRow {
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
  last_synced_at: Date | null;
  b_cusip: string | null;
  [bondColumn: `b_${string}`]: unknown;
  override_price: string | null;
  override_set_at: Date | null;
  /** Splits dividing the asset's prices, laid over the row for the reader (PriceAdjustments). */
  price_adjustments?: PriceAdjustment[];
  /** The stored ticker of an asset the reader sees renamed by a symbol change (AssetIdentityChanges). */
  former_symbol?: string;
}

export const ASSET_SELECT = [
  ...ASSET_READ_COLUMNS.map((c) => `a."${c}"`),
  ...BOND_TEXT_COLUMNS.map((c) => `b."${c}" AS "b_${c}"`),
  // Dates leave PostgreSQL as 'YYYY-MM-DD' text, never as a JavaScript Date at some local midnight.
  ...BOND_DATE_COLUMNS.map((c) => `b."${c}"::text AS "b_${c}"`),
  `o."price" AS "override_price"`,
  `o."updated_at" AS "override_set_at"`,
].join(', ');

/** Listing preference when several markets share a symbol: US primary listings first. */
export const MARKET_PREFERENCE = ['XNAS', 'XNYS', 'ARCA', 'BATS', 'OTC', 'CRYPTO', 'XNSA', 'XNAI'];
const MARKET_RANK = `coalesce(array_position(ARRAY['${MARKET_PREFERENCE.join("','")}'], a."market"), 99)`;
const SYMBOL_KEY = `upper(a."symbol") COLLATE "C"`;
const NAME_KEY = `lower(a."name") COLLATE "C"`;

function joins(tenantParam: string): string {
  return `LEFT JOIN "asset_bonds" b ON b."asset_id" = a."id"
    LEFT JOIN "asset_price_overrides" o ON o."asset_id" = a."id" AND o."tenant_id" = ${tenantParam}`;
}

export interface AssetSearchCriteria {
  q?: string;
  status: 'active' | 'inactive';
  classes?: readonly AssetClass[];
  country?: string;
  markets?: readonly string[];
  marketCountry?: string;
  /** Rows to return (the caller asks one more than it shows to learn has_more). */
  take: number;
  /** Tenant whose test-mode overrides apply, or null (live keys). */
  overrideTenant: string | null;
}

export interface SqlQuery {
  text: string;
  values: unknown[];
}

/** Escapes LIKE wildcards so a query matches literally. */
function likeLiteral(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Name candidates ranked per search: at most this many per take row are read from the search
 * terms (in term order) before they are ranked by similarity, so a common word ("bank",
 * "holdings inc") costs a bounded number of row reads however many names contain it.
 */
export const NAME_CANDIDATES_PER_ROW = 2;

/**
 * Asset search. Without q: assets in ticker order. With q, one tier per kind of match, each served by
 * an index and cut to `take` rows before the final order:
 *   rank 0  ticker equals q (case-insensitive), US primary listing first;
 *   rank 1  ticker starts with q, in ticker order;
 *   rank 2  a word of the name starts with q (precomputed search terms, btree);
 *   rank 3  q appears anywhere else in the name or ticker (three characters or more: trigram index),
 *           looked for only when ranks 0-2 found fewer than `take` rows;
 * names ranked by trigram similarity to q, then alphabetically. Rank 2 ranks a bounded candidate
 * set: the first take × NAME_CANDIDATES_PER_ROW matching terms in term order (an exact word before
 * longer words starting with q), so a word shared by thousands of names stays cheap. The assets'
 * full rows are read for the final `take` rows only.
 */
// eslint-disable-next-line max-lines-per-function -- one SQL statement built clause by clause; the text reads top to bottom as PostgreSQL runs it.
export function assetSearchQuery(criteria: AssetSearchCriteria): SqlQuery {
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const tenant = param(criteria.overrideTenant);
  const filters = [`a."status" = ${param(criteria.status)}`];
  if (criteria.classes) {
    filters.push(`a."class" = ANY(${param(criteria.classes)})`);
  }
  if (criteria.country) {
    filters.push(`a."country" = ${param(criteria.country)}`);
  }
  if (criteria.markets) {
    filters.push(`a."market" = ANY(${param(criteria.markets)})`);
  }
  if (criteria.marketCountry) {
    filters.push(`a."market_country" = ${param(criteria.marketCountry)}`);
  }
  const where = filters.join(' AND ');
  const take = param(criteria.take);
  const q = criteria.q?.trim();

  if (!q) {
    return {
      text: `SELECT ${ASSET_SELECT} FROM "assets" a ${joins(tenant)}
        WHERE ${where} ORDER BY ${SYMBOL_KEY}, ${MARKET_RANK}, a."id" LIMIT ${take}`,
      values,
    };
  }

  const upper = q.toUpperCase();
  const lower = q.toLowerCase();
  const exact = param(upper);
  const symbolPrefix = param(`${likeLiteral(upper)}%`);
  const namePrefix = param(`${likeLiteral(lower)}%`);
  const notSymbolPrefix = `${SYMBOL_KEY} NOT LIKE ${symbolPrefix}`;
  const tiers = [
    `"exact" AS (SELECT a."id", 0 AS "rank", 0::real AS "score", ${SYMBOL_KEY} AS "key", ${MARKET_RANK} AS "market_rank"
        FROM "assets" a WHERE ${where} AND ${SYMBOL_KEY} = ${exact}
        ORDER BY 5, a."id" LIMIT ${take})`,
    `"prefix" AS (SELECT a."id", 1 AS "rank", 0::real AS "score", ${SYMBOL_KEY} AS "key", ${MARKET_RANK} AS "market_rank"
        FROM "assets" a WHERE ${where} AND ${SYMBOL_KEY} LIKE ${symbolPrefix} AND ${SYMBOL_KEY} <> ${exact}
        ORDER BY 4, 5, a."id" LIMIT ${take})`,
  ];
  const tierNames = ['"exact"', '"prefix"', '"words"'];
  if (q.length >= 3) {
    // Trigrams need three characters; shorter queries match ticker and name prefixes only.
    const wordPrefix = param(`% ${likeLiteral(lower)}%`);
    const contains = param(`%${likeLiteral(q)}%`);
    const text = param(q);
    const candidates = param(NAME_CANDIDATES_PER_ROW);
    tiers.push(
      `"words" AS (SELECT DISTINCT ON (c."id") c."id", 2 AS "rank", similarity(c."name", ${text}) AS "score",
          lower(c."name") COLLATE "C" AS "key", c."market_rank"
        FROM (SELECT a."id", a."name", ${MARKET_RANK} AS "market_rank"
          FROM "asset_search_terms" t JOIN "assets" a ON a."id" = t."asset_id"
          WHERE t."term" LIKE ${namePrefix} AND ${where} AND ${notSymbolPrefix}
          ORDER BY t."term", t."asset_id" LIMIT ${take} * ${candidates}) c)`,
      `"contains" AS (SELECT a."id", 3 AS "rank", similarity(a."name", ${text}) AS "score", ${NAME_KEY} AS "key", ${MARKET_RANK} AS "market_rank"
        FROM "assets" a
        WHERE (SELECT count(*) FROM "exact") + (SELECT count(*) FROM "prefix") + (SELECT count(*) FROM "words") < ${take}
          AND ${where} AND (a."name" ILIKE ${contains} OR a."symbol" ILIKE ${contains}) AND ${notSymbolPrefix}
          AND NOT (${NAME_KEY} LIKE ${namePrefix} OR lower(a."name") LIKE ${wordPrefix})
        ORDER BY 3 DESC, 4, 5, a."id" LIMIT ${take})`,
    );
    tierNames.push('"contains"');
  } else {
    tiers.push(
      `"words" AS (SELECT a."id", 2 AS "rank", 0::real AS "score", ${NAME_KEY} AS "key", ${MARKET_RANK} AS "market_rank"
        FROM "assets" a WHERE ${where} AND ${NAME_KEY} LIKE ${namePrefix} AND ${notSymbolPrefix}
        ORDER BY 4, 5, a."id" LIMIT ${take})`,
    );
  }
  const order = `m."rank", m."score" DESC, m."key", m."market_rank", m."id"`;
  return {
    text: `WITH ${tiers.join(',\n      ')}
      SELECT ${ASSET_SELECT} FROM (
        SELECT * FROM (${tierNames.map((t) => `SELECT * FROM ${t}`).join(' UNION ALL ')}) m
        ORDER BY ${order} LIMIT ${take}
      ) m JOIN "assets" a ON a."id" = m."id" ${joins(tenant)}
      ORDER BY ${order}`,
    values,
  };
}

/** One asset by id (uuid or CUSIP), ISIN, or ticker; a ticker listed on several markets prefers US primary listings. */
export function assetLookupQuery(
  kind: 'id' | 'isin' | 'symbol',
  ref: string,
  overrideTenant: string | null,
): SqlQuery {
  const where =
    kind === 'id' ? `a."id" = $2` : kind === 'isin' ? `b."isin" = upper($2)` : `${SYMBOL_KEY} = upper($2)`;
  return {
    text: `SELECT ${ASSET_SELECT} FROM "assets" a ${joins('$1')} WHERE ${where}
      ORDER BY (a."status" = 'active') DESC, ${MARKET_RANK}, a."id" LIMIT 1`,
    values: [overrideTenant, ref],
  };
}
