import { ClockModule } from 'src/core/clock/clock.module';
import { AssetCatalogModule } from 'src/modules/assets/asset-catalog.module';
import { AssetIdentityChanges } from 'src/modules/assets/asset-identity-changes';
import type { AssetQueryRow } from 'src/modules/assets/asset-queries';
import { madeBeforeAll } from '../support/made-before-all';
import { createServiceContext, describeLocal } from '../support/service-context';

describeLocal('AssetIdentityChanges in the process that writes a change', () => {
  const ctx = madeBeforeAll('The service context', () =>
    createServiceContext([ClockModule, AssetCatalogModule]),
  );
  const changes = madeBeforeAll('AssetIdentityChanges', () =>
    Promise.resolve(ctx.app.get(AssetIdentityChanges)),
  );
  let asset: AssetQueryRow;
  beforeAll(() => insertRenameActions());

  it('shows a symbol change from its commit on, though a read ran between the write and the commit', async () => {
    const renamed = async () => (await changes.lay([asset], null))[0].symbol;
    expect(await renamed()).toBe('MSFT');
    await ctx.dataSource.transaction(async (manager) => {
      await changes.set(manager, 'ca_rename_msft', {
        assetId: asset.id,
        tenantId: null,
        newSymbol: 'MSFTX',
        inactive: false,
        from: new Date('2020-01-01T00:00:00Z'),
      });
      // Another request reads the table now: it cannot see the uncommitted row and keeps what it read.
      expect(await renamed()).toBe('MSFT');
    });
    expect(await renamed()).toBe('MSFTX');
    expect(await changes.renamedTo('MSFTX', null)).toEqual([asset.id]);
  });

  it('keeps the rows as they were when the change is rolled back', async () => {
    const before = (await changes.lay([asset], null))[0].symbol;
    await expect(
      ctx.dataSource.transaction(async (manager) => {
        await changes.set(manager, 'ca_rename_again', {
          assetId: asset.id,
          tenantId: null,
          newSymbol: 'MSFTY',
          inactive: false,
          from: new Date('2021-01-01T00:00:00Z'),
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await changes.lay([asset], null))[0].symbol).toBe(before);
  });

  /** MSFT's asset row, and the corporate actions the changes belong to (a change's id is its action's). */
  async function insertRenameActions(): Promise<void> {
    [asset] = await ctx.dataSource.query(`SELECT * FROM assets WHERE symbol = 'MSFT' LIMIT 1`);
    for (const [id, newSymbol] of [
      ['ca_rename_msft', 'MSFTX'],
      ['ca_rename_again', 'MSFTY'],
    ]) {
      await ctx.dataSource.query(
        `INSERT INTO corporate_actions (id, type, asset_id, symbol, currency, market, ex_date, record_date,
           new_symbol, description, created_at, updated_at, applies_at)
         VALUES ($1, 'symbol_change', $2, 'MSFT', 'USD', 'XNAS', '2020-01-01', '2020-01-01', $3, 'rename',
           now(), now(), now())`,
        [id, asset.id, newSymbol],
      );
    }
  }
});
