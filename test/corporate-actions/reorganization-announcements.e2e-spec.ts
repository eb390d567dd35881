import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Decimal from 'decimal.js';
import { closeCliContext } from 'src/cli/cli-context';
import { itLocal, useTestContext } from '../support/app';
import { runCli } from '../support/cli';
import { expectSvcError } from '../support/errors';
import { advanceClock, freezeClock, MONDAY_OPEN, setPrice, trader } from '../trading/support/trading';

import { announce, corporateActionWebhook, costOf, DAY, entitlements, expectAuditClean } from './support';

/**
 * Announcing symbol changes and mergers: bad or inconsistent terms are 400 naming the field (the
 * test helper); support's CLI imports them market-wide, a correction sends
 * `corporate_action.updated`, and a tenant created after the import still processes them.
 */
describe('Announcing symbol changes and mergers', () => {
  const ctx = useTestContext();
  afterAll(() => closeCliContext());

  it('refuses missing, misplaced or inconsistent terms with 400 naming the field', async () => {
    const tenant = await ctx.createTenant();
    const client = ctx.as(tenant.test);
    const post = (body: Record<string, unknown>) => client.post('/v1/test_helpers/corporate-actions', body);
    const rename = { type: 'symbol_change', symbol: 'AAPL', new_symbol: 'APPLX', ...EX };
    const cash = { type: 'cash_merger', symbol: 'AAPL', cash_rate: '201.5', ...EX };
    const stock = {
      type: 'stock_merger',
      symbol: 'AAPL',
      new_symbol: 'MSFT',
      old_rate: '2',
      new_rate: '1',
      ...EX,
    };
    const missing: Array<[Record<string, unknown>, string]> = [
      [{ ...rename, new_symbol: undefined }, 'new_symbol'],
      [{ ...cash, cash_rate: undefined }, 'cash_rate'],
      [{ ...stock, new_symbol: undefined }, 'new_asset_id'],
      [{ ...stock, new_rate: undefined }, 'new_rate'],
      [{ ...cash, ex_date: undefined }, 'ex_date'],
    ];
    for (const [body, param] of missing) {
      expectSvcError(await post(body), 'SVC-400-002', { param });
    }
    const msft = (await client.get('/v1/assets/MSFT')).body.id as string;
    const aapl = (await client.get('/v1/assets/AAPL')).body.id as string;
    const wrong: Array<[Record<string, unknown>, string]> = [
      [{ ...rename, cash_rate: '1' }, 'cash_rate'],
      [{ ...rename, new_symbol: 'aapl' }, 'new_symbol'],
      [{ ...rename, new_symbol: 'MSFT' }, 'new_symbol'],
      [{ ...rename, new_symbol: 'A B' }, 'new_symbol'],
      [{ ...rename, record_date: '2049-03-02' }, 'record_date'],
      [{ ...cash, cash_rate: '0' }, 'cash_rate'],
      [{ ...cash, cash_rate: '-3' }, 'cash_rate'],
      [{ ...cash, new_rate: '2' }, 'new_rate'],
      [{ ...cash, payable_date: '2049-03-02' }, 'payable_date'],
      [{ ...cash, declaration_date: '2049-03-04' }, 'declaration_date'],
      [{ ...cash, symbol: 'NOPE-NOT-A-SYMBOL' }, 'symbol'],
      [{ ...stock, new_rate: '0' }, 'new_rate'],
      [{ ...stock, new_symbol: 'NOPE-NOT-A-SYMBOL' }, 'new_symbol'],
      [{ ...stock, new_symbol: undefined, new_asset_id: 'MSFT' }, 'new_asset_id'],
      [{ ...stock, new_symbol: 'AAPL' }, 'new_symbol'],
      [{ ...stock, new_asset_id: aapl }, 'new_symbol'],
      [{ ...stock, new_symbol: 'DANGCEM' }, 'new_symbol'],
      [{ ...stock, new_symbol: 'BTC/USD' }, 'new_symbol'],
    ];
    for (const [body, param] of wrong) {
      expectSvcError(await post(body), 'SVC-400-001', { param });
    }
    // The acquirer named by id answers with its ticker too.
    const created = await announce(ctx, tenant.test, { ...stock, new_symbol: undefined, new_asset_id: msft });
    expect(created).toMatchObject({
      type: 'stock_merger',
      new_asset_id: msft,
      new_symbol: 'MSFT',
      old_rate: '2',
      new_rate: '1',
      cash_rate: null,
      description: 'AAPL stock merger into MSFT, 1 for 2',
    });
    const list = await client.get('/v1/corporate-actions?type=stock_merger');
    expect(list.body.data.map((a: any) => a.id)).toEqual([created.id]);
  });

  itLocal(
    'support imports mergers with the CLI, a correction sends corporate_action.updated, and a later tenant processes them',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mergers-'));
      try {
        const early = await ctx.createTenant();
        const hook = await corporateActionWebhook(ctx, early.test);
        const file = join(dir, 'feed.json');
        const cashTerms = { type: 'cash_merger', symbol: 'AKAM', ...EX };
        const stockTerms = {
          type: 'stock_merger',
          symbol: 'AFRM',
          new_symbol: 'SPY',
          old_rate: '4',
          new_rate: '1',
          ...EX,
        };
        writeFileSync(file, JSON.stringify([{ ...cashTerms, cash_rate: '80' }, stockTerms]));
        const imported = await runCli('corporate-actions:import', file);
        expect(imported.data.map((r: any) => [r.result, r.type])).toEqual([
          ['announced', 'cash_merger'],
          ['announced', 'stock_merger'],
        ]);
        const [cashId, stockId] = imported.data.map((r: any) => r.id as string);
        writeFileSync(file, JSON.stringify([{ ...cashTerms, id: cashId, cash_rate: '84.5' }]));
        expect((await runCli('corporate-actions:import', file)).data[0]).toMatchObject({
          result: 'corrected',
        });
        const [updated] = await hook.waitFor((e) => e.event === 'corporate_action.updated');
        expect(updated.data).toMatchObject({
          id: cashId,
          cash_rate: '84.5',
          status: 'announced',
          livemode: false,
        });
        writeFileSync(file, JSON.stringify([{ ...stockTerms, new_symbol: undefined }]));
        await expect(runCli('corporate-actions:import', file)).rejects.toThrow(/\(new_asset_id\)/);
        await hook.stop();

        // A tenant created after the import holds both targets and processes both on its clock.
        const late = await ctx.createTenant();
        await freezeClock(ctx, late.test, MONDAY_OPEN);
        const t = await trader(ctx, late.test, '5000.00');
        await setPrice(ctx, late.test, 'AKAM', '80');
        await setPrice(ctx, late.test, 'AFRM', '60');
        const order = { side: 'buy', type: 'market', time_in_force: 'day' };
        const akam = await t.place({ ...order, symbol: 'AKAM', quantity: '3' });
        const afrm = await t.place({ ...order, symbol: 'AFRM', quantity: '5' });
        const akamBasis = costOf(await t.executions(akam.body.id));
        const afrmBasis = costOf(await t.executions(afrm.body.id));
        await advanceClock(ctx, late.test, 2 * DAY);

        // SPY is fractionable: 5 AFRM at 1 for 4 are 1.25 SPY with AFRM's whole basis.
        expect(await t.positions()).toEqual([
          expect.objectContaining({
            symbol: 'SPY',
            quantity: '1.25',
            total_cost_basis: afrmBasis.toFixed(2),
          }),
        ]);
        const paid = new Decimal(3).times('84.5');
        expect((await t.balance()).cash).toBe(
          new Decimal(5000).minus(akamBasis).minus(afrmBasis).plus(paid).toFixed(2),
        );
        const [row] = await entitlements(ctx, late.test, cashId);
        expect(row).toMatchObject({ eligible_quantity: '3', cash: paid.toFixed(), status: 'applied' });
        const processed = await ctx.as(late.test).get('/v1/corporate-actions?status=processed');
        expect(processed.body.data.map((a: any) => a.id).sort()).toEqual([cashId, stockId].sort());
        await expectAuditClean(ctx, late.tenantId);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

const EX = { ex_date: '2049-03-03' };
