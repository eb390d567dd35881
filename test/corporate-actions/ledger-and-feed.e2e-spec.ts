import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Decimal from 'decimal.js';
import { closeCliContext } from 'src/cli/cli-context';
import { itLocal, useTestContext } from '../support/app';
import { runCli as cli } from '../support/cli';
import { sandboxTerms } from '../support/sandbox-terms';
import { advanceClock, freezeClock, MONDAY_OPEN, setPrice, trader } from '../trading/support/trading';

import { allActivities, netAmountsAndCash } from '../activities/support';
import { announce, costOf, entitlements, expectAuditClean, onlyStatement, unitsBySymbol } from './support';
import { HOUR, DAY, cents, GB_RESIDENT } from './support';

describe('Corporate actions on the test clock: the ledger audit and the market-wide feed', () => {
  const ctx = useTestContext();
  afterAll(() => closeCliContext());

  itLocal(
    'the ledger audit holds after a dividend with withholding and a reverse split with cash in lieu',
    async () => {
      const tenant = await ctx.createTenant();
      await freezeClock(ctx, tenant.test, MONDAY_OPEN);
      await sandboxTerms(ctx, tenant.tenantId, 'corporate-action-settings', {
        dividend_withholding_bps: 1500,
      });
      const gb = await trader(ctx, tenant.test, '10000.00', GB_RESIDENT);
      await setPrice(ctx, tenant.test, 'AXAHY', '40');
      const fill = await gb.place({
        symbol: 'AXAHY',
        side: 'buy',
        type: 'market',
        time_in_force: 'day',
        quantity: '25',
      });
      expect(fill.body.status).toBe('filled');
      const basis = costOf(await gb.executions(fill.body.id));
      await announce(ctx, tenant.test, {
        type: 'cash_dividend',
        symbol: 'AXAHY',
        cash_rate: '0.1',
        ex_date: '2049-03-02',
        payable_date: '2049-03-02',
      });
      const reverse = await announce(ctx, tenant.test, {
        type: 'reverse_split',
        symbol: 'AXAHY',
        old_rate: '10',
        new_rate: '1',
        ex_date: '2049-03-03',
      });
      // The previous close before the reverse split's ex date, as the partner reads it on the eve.
      await advanceClock(ctx, tenant.test, DAY + 12 * HOUR);
      const asset = await ctx.as(tenant.test).get('/v1/assets/AXAHY');
      const previousClose = new Decimal(asset.body.previousClose);
      await advanceClock(ctx, tenant.test, 6 * HOUR);

      // 25 → 2 whole shares; 0.5 paid at the close × 10, taking a fifth of the basis with it.
      const cil = cents(new Decimal('0.5').times(previousClose).times(10));
      const fractionBasis = basis.times('0.5').div('2.5');
      const [position] = await gb.positions();
      expect(position).toMatchObject({
        quantity: '2',
        total_cost_basis: cents(basis.minus(fractionBasis)).toFixed(2),
      });
      // Dividend 25 × 0.10 = 2.50, 15 % withheld = 0.375 → 0.38 (half-even).
      expect((await gb.balance()).cash).toBe(
        new Decimal(10000).minus(basis).plus('2.50').minus('0.38').plus(cil).toFixed(2),
      );
      const [row] = await entitlements(ctx, tenant.test, reverse.id);
      expect(row).toMatchObject({
        eligible_quantity: '25',
        quantity_change: '-23',
        cash_in_lieu: cil.toFixed(),
      });
      // The feed at 04:00 New York of the ex date: the reverse split takes 25 to 2.5 units (−22.5),
      // and the half unit is sold (−0.5) at the close × 10 for the cash in lieu.
      const feed = await allActivities(ctx, tenant.test, gb.investor.account_id, '&activity_types=SPLIT,CIL');
      expect(
        feed.map((a) => [
          a.activity_type,
          a.date,
          a.corporate_action_id,
          a.qty === null ? null : new Decimal(a.qty).toFixed(),
          a.price === null ? null : new Decimal(a.price).toFixed(),
          new Decimal(a.net_amount).toFixed(2),
        ]),
      ).toEqual([
        ['SPLIT', '2049-03-03', reverse.id, '-22.5', null, '0.00'],
        ['CIL', '2049-03-03', reverse.id, '-0.5', previousClose.times(10).toFixed(), cil.toFixed(2)],
      ]);
      // The units of every activity (the fill, the split, the fraction sold) add up to the position.
      const everything = await allActivities(ctx, tenant.test, gb.investor.account_id);
      expect(unitsBySymbol(everything)).toEqual({ AXAHY: position.quantity });
      const sums = await netAmountsAndCash(ctx, tenant.test, gb.investor.account_id);
      expect(sums.activities).toEqual(sums.cash);
      await expectAuditClean(ctx, tenant.tenantId);

      // March's statement: the cash in lieu is a sale of the half unit, realizing its cash less a
      // fifth of the 25 shares' cost (0.5 of the 2.5 units after the ratio); nothing else was sold.
      await freezeClock(ctx, tenant.test, '2049-04-01T14:00:00Z');
      const statement = await onlyStatement(ctx, tenant.test, gb.investor.id);
      expect(statement.totals).toEqual([
        expect.objectContaining({
          currency: 'USD',
          realized_gain_loss: cents(cil.minus(fractionBasis)).toFixed(2),
        }),
      ]);
      expect(statement.positions).toEqual([expect.objectContaining({ symbol: 'AXAHY', quantity: '2' })]);
    },
  );

  itLocal(
    'support imports a market-wide dividend with the CLI, corrects it, and each tenant pays it on its clock',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'corporate-actions-'));
      try {
        const tenant = await ctx.createTenant();
        await freezeClock(ctx, tenant.test, MONDAY_OPEN);
        const t = await trader(ctx, tenant.test, '1000.00');
        await setPrice(ctx, tenant.test, 'MSFT', '100');
        const fill = await t.place({
          symbol: 'MSFT',
          side: 'buy',
          type: 'market',
          time_in_force: 'day',
          quantity: '4',
        });
        expect(fill.body.status).toBe('filled');
        const cash = new Decimal((await t.balance()).cash);
        const file = join(dir, 'feed.json');
        const terms = {
          type: 'cash_dividend',
          symbol: 'MSFT',
          ex_date: '2049-03-02',
          payable_date: '2049-03-03',
        };
        writeFileSync(file, JSON.stringify([{ ...terms, cash_rate: '0.5' }]));
        const imported = await cli('corporate-actions:import', file);
        expect(imported).toMatchObject({
          imported: 1,
          data: [{ result: 'announced', symbol: 'MSFT', type: 'cash_dividend' }],
        });
        const id = imported.data[0].id as string;
        writeFileSync(file, JSON.stringify([{ ...terms, id, cash_rate: '0.83' }]));
        expect((await cli('corporate-actions:import', file)).data[0]).toMatchObject({
          id,
          result: 'corrected',
        });
        writeFileSync(
          file,
          JSON.stringify([{ type: 'stock_split', symbol: 'MSFT', old_rate: '1', ex_date: '2049-03-02' }]),
        );
        await expect(cli('corporate-actions:import', file)).rejects.toThrow(/\(new_rate\)/);
        expect(
          await cli('corporate-actions:settings', tenant.tenantId, '--dividend-withholding-bps', '0'),
        ).toEqual({
          tenant_id: tenant.tenantId,
          dividend_withholding_bps: 0,
        });
        // Market-wide: both modes of the tenant see it; each processes it on its own clock.
        for (const creds of [tenant.test, tenant.live]) {
          expect((await ctx.as(creds).get(`/v1/corporate-actions/${id}`)).body).toMatchObject({
            cash_rate: '0.83',
            status: 'announced',
            livemode: creds === tenant.live,
          });
        }
        await advanceClock(ctx, tenant.test, 2 * DAY);
        expect((await t.balance()).cash).toBe(cash.plus(cents(new Decimal(4).times('0.83'))).toFixed(2));
        expect((await ctx.as(tenant.test).get(`/v1/corporate-actions/${id}`)).body.status).toBe('processed');
        expect((await ctx.as(tenant.live).get(`/v1/corporate-actions/${id}`)).body.status).toBe('announced');
        await expectAuditClean(ctx, tenant.tenantId);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
