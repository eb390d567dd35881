import type { Client } from 'pg';

export const SYLLABLES =
  'ka vel mor zen tri lo quin ra sol vex dor an bel cor ti nu pra xi gal ven or li sta mer ho ul fen dra sy ter'.split(
    ' ',
  );
const NOUNS =
  'Energy Bank Health Therapeutics Systems Holdings Capital Foods Motors Networks Pharma Resources Logistics Media Semiconductor Insurance Realty Biotech Software Airlines Mining Retail Telecom Chemicals Materials Robotics Solar Water Gaming Apparel Shipping Steel Hotels Brands Devices Analytics Security Labs Textiles Power'.split(
    ' ',
  );
const SUFFIXES = 'Inc.|Corp.|Group|Ltd.|plc|Co.|Trust|Partners|Holdings Inc.|SA'.split('|');
const MARKETS = [
  ['XNAS', 'NASDAQ', 'US', 'USD', 'us'],
  ['XNYS', 'NYSE', 'US', 'USD', 'us'],
  ['ARCA', 'NYSE Arca', 'US', 'USD', 'us'],
  ['OTC', 'OTC Markets', 'US', 'USD', 'us'],
  ['XNSA', 'NGX', 'NG', 'NGN', 'ng'],
  ['XNAI', 'NSE', 'KE', 'KES', 'ke'],
];

const sqlArray = (values: string[]) => `ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]`;

/**
 * Adds `count` synthetic listed assets beside the real ones: tickers of four letters and a digit (no
 * real ticker has a digit), names of a made-up brand, an industry noun and a suffix, so a common word
 * such as "Bank" matches about 2.5% of them, as in a real listing universe.
 */
export async function insertSyntheticAssets(
  client: Client,
  count: number,
  /** Ids shaped as RFC 4122 version 4 uuids, as the engine's look-up by id asks (bench/orders). */
  options: { uuidShapedIds?: boolean } = {},
): Promise<void> {
  const id = options.uuidShapedIds
    ? `overlay(overlay(md5('bench:' || i)::uuid::text placing '4' from 15) placing '8' from 20)`
    : `md5('bench:' || i)::uuid::text`;
  await client.query(`
    WITH s AS (SELECT i, ${sqlArray(SYLLABLES)} AS syl, ${sqlArray(NOUNS)} AS nouns, ${sqlArray(SUFFIXES)} AS suffixes,
      (i % ${MARKETS.length}) + 1 AS m FROM generate_series(1, ${count}) AS i),
    markets AS (SELECT * FROM (VALUES ${MARKETS.map((m) => `(${MARKETS.indexOf(m) + 1}, ${m.map((v) => `'${v}'`).join(', ')})`).join(', ')})
      AS t(m, market, market_name, market_country, market_currency, country))
    INSERT INTO "assets" ("id", "class", "country", "market", "market_name", "market_country", "market_currency",
      "symbol", "name", "status", "tradable", "marginable", "shortable", "easy_to_borrow", "fractionable",
      "fractional_eh_enabled", "currency", "reference_price", "last_synced_at")
    SELECT ${id}, CASE WHEN i % 9 = 0 THEN 'etf' ELSE 'equity' END, mk.country, mk.market,
      mk.market_name, mk.market_country, mk.market_currency,
      chr(65 + (i / 175760) % 26) || chr(65 + (i / 6760) % 26) || chr(65 + (i / 260) % 26) || chr(65 + (i / 10) % 26) || (i % 10)::text,
      initcap(syl[1 + i % 30] || syl[1 + (i / 30) % 30] || syl[1 + (i / 900) % 30]) || ' ' || nouns[1 + (i * 7) % 40]
        || ' ' || suffixes[1 + (i / 7) % 10],
      CASE WHEN i % 50 = 0 THEN 'inactive' ELSE 'active' END, true, true, true, true, true, false, mk.market_currency,
      (1 + (i * 37) % 500)::numeric + 0.25, now()
    FROM s JOIN markets mk ON mk.m = s.m`);
  await client.query('ANALYZE "assets"');
}
