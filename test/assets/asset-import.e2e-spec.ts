import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importAssets } from 'src/cli/commands/asset.commands';
import { buildProgram } from 'src/cli/main';
import { closeCliContext } from 'src/cli/cli-context';
import { listedAssetId } from 'src/modules/assets/identifiers';
import { AssetImportError, REFERENCE_DATA_FILES } from 'src/modules/assets/import/assets-importer';
import { basic, itLocal, useTenant, useTestContext } from '../support/app';

describe('assets:import', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  afterAll(() => closeCliContext());

  itLocal('inserts new assets from JSON, then refreshes them by id and moves last_synced_at', async () => {
    const path = file('new.json', JSON.stringify([equity]));
    const first = await importAssets(ctx.dataSource, [path]);
    expect(first).toMatchObject({ records: 1, inserted: 1, updated: 0 });
    const created = await get('ZZTEST');
    expect(created.body).toMatchObject({
      id: listedAssetId('XNYS', 'ZZTEST'),
      name: 'Zed Test Industries Inc.',
      last_synced_at: first.last_synced_at,
    });

    writeFileSync(path, JSON.stringify([{ ...equity, name: 'Zed Test Holdings Inc.', status: 'inactive' }]));
    const second = await importAssets(ctx.dataSource, [path]);
    expect(second).toMatchObject({ records: 1, inserted: 0, updated: 1 });
    const refreshed = await get('ZZTEST');
    expect(refreshed.body).toMatchObject({
      id: created.body.id,
      name: 'Zed Test Holdings Inc.',
      status: 'inactive',
    });
    expect(refreshed.body.last_synced_at > created.body.last_synced_at).toBe(true);
  });

  itLocal(
    'search finds an imported asset by a word of its name, and by its new name once renamed',
    async () => {
      const search = async (q: string) =>
        (
          await ctx
            .http()
            .get('/v1/assets/search')
            .query({ q, status: 'active' })
            .set('Authorization', basic(tenant.test))
        ).body.data.map((a: { symbol: string }) => a.symbol) as string[];
      const path = file(
        'renamed.json',
        JSON.stringify([{ ...equity, symbol: 'ZZWORD', name: 'Qorvandel Widgets Inc.' }]),
      );
      await importAssets(ctx.dataSource, [path]);
      expect(await search('widgets')).toContain('ZZWORD'); // a later word of the name (search terms)
      expect(await search('qorvan')).toContain('ZZWORD');
      writeFileSync(path, JSON.stringify([{ ...equity, symbol: 'ZZWORD', name: 'Qorvandel Gadgets Inc.' }]));
      await importAssets(ctx.dataSource, [path]);
      expect(await search('gadgets')).toContain('ZZWORD');
      expect(await search('widgets')).not.toContain('ZZWORD');
    },
  );

  itLocal('reads CSV with bond attributes in bond.<field> columns', async () => {
    const path = file('bonds.csv', `${BOND_CSV_HEADER}\n${bondRow('91282CLF6', 'US91282CLF67')}\n`);
    const result = await importAssets(ctx.dataSource, [path]);
    expect(result).toMatchObject({ records: 1, inserted: 1 });
    const res = await get('US91282CLF67');
    expect(res.body).toMatchObject({ id: '91282CLF6', class: 'note', symbol: 'T 3.875 08/15/34' });
    expect(res.body.bond).toMatchObject({
      coupon_rate: '0.03875',
      maturity_date: '2034-08-15',
      accrual_basis: 'ACT/ACT',
    });
  });

  itLocal('rejects a file with a wrong check digit as a whole, naming record and field', async () => {
    const path = file(
      'bad.csv',
      `${BOND_CSV_HEADER}\n${bondRow('91282CLG4', 'US91282CLG41')}\n${bondRow('91282CLH3', 'US91282CLH30')}\n`,
    );
    const attempt = importAssets(ctx.dataSource, [path]);
    await expect(attempt).rejects.toThrow(AssetImportError);
    await expect(attempt).rejects.toThrow(/bad\.csv\[1\] bond\.cusip: check digit of '91282CLH3' is wrong/);
    // Nothing of the file was stored, not even its valid first record.
    expect((await get('91282CLG4')).status).toBe(404);
  });

  itLocal('reloading the shipped reference data keeps every id', async () => {
    const before = await ctx.dataSource.query(`SELECT count(*)::int AS n FROM "assets"`);
    const result = await importAssets(ctx.dataSource, REFERENCE_DATA_FILES);
    expect(result.inserted).toBe(0);
    expect(result.updated).toBe(result.records);
    expect(result.records).toBeGreaterThanOrEqual(800);
    const after = await ctx.dataSource.query(`SELECT count(*)::int AS n FROM "assets"`);
    expect(after).toEqual(before);
  });

  itLocal('is registered in the CLI and prints its result as JSON', async () => {
    const path = file('cli.json', JSON.stringify([{ ...equity, symbol: 'ZZCLI' }]));
    const chunks: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      chunks.push(chunk.toString());
      return true;
    });
    try {
      await buildProgram({ throwOnError: true }).parseAsync(['node', 'cli', 'assets:import', path]);
    } finally {
      write.mockRestore();
    }
    expect(JSON.parse(chunks.join(''))).toMatchObject({ files: [path], records: 1, inserted: 1, updated: 0 });
    expect((await get('ZZCLI')).status).toBe(200);
  });

  const get = (ref: string) =>
    ctx
      .http()
      .get(`/v1/assets/${encodeURIComponent(ref)}`)
      .set('Authorization', basic(tenant.test));
});

const dir = mkdtempSync(join(tmpdir(), 'asset-import-'));
const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

const equity = {
  class: 'equity',
  country: 'us',
  market: 'XNYS',
  market_name: 'NYSE',
  market_country: 'US',
  market_currency: 'USD',
  symbol: 'ZZTEST',
  name: 'Zed Test Industries Inc.',
  status: 'active',
  tradable: true,
  marginable: true,
  shortable: false,
  easy_to_borrow: false,
  fractionable: true,
  fractional_eh_enabled: false,
  currency: 'USD',
  reference_price: '42.10',
};

const BOND_CSV_HEADER = [
  'class,country,market,symbol,name,status,tradable,marginable,shortable,easy_to_borrow,fractionable',
  'fractional_eh_enabled,currency,reference_price,bond.cusip,bond.isin,bond.bond_status,bond.bond_type',
  'bond.bond_subtype,bond.maturity_date,bond.issue_date,bond.dated_date,bond.first_coupon_date',
  'bond.next_coupon_date,bond.last_coupon_date,bond.coupon_rate,bond.coupon_type,bond.coupon_frequency',
  'bond.accrual_basis,bond.accrued_interest,bond.face_value,bond.min_increment,bond.settlement_period',
  'bond.close_price_date,bond.yield_to_maturity,bond.yield_to_worst,bond.callable,bond.puttable',
  'bond.convertible,bond.perpetual,bond.next_call_date,bond.next_call_price,bond.call_type,bond.issuer',
  'bond.ticker,bond.sector,bond.seniority,bond.country_domicile,bond.rating,bond.sp_rating,bond.sp_outlook',
].join(',');
// The US Treasury 3.875% note due 15 August 2034 (CUSIP 91282CLF6), which the shipped data leaves out.
const bondRow = (cusip: string, isin: string) =>
  [
    'note,us,OTC,"T 3.875 08/15/34","United States Treasury Note 3.875% 08/15/2034",active,true,true,false,false,false',
    `false,USD,97.25,${cusip},${isin},outstanding,treasury`,
    'note,2034-08-15,2024-08-15,2024-08-15,2025-02-15',
    ',2034-08-15,0.03875,fixed,2',
    'ACT/ACT,0,100,100,1',
    '2026-11-20,4.3,4.3,false,false',
    'false,false,,,none,United States Treasury',
    'T,Government,sovereign,US,AA+,AA+,stable',
  ].join(',');
