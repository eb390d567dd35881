import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobRegistry } from 'src/core/scheduler/job-registry';
import { basic, itLocal, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { adminToken } from '../support/remote';
import { sandboxTerms } from '../support/sandbox-terms';
import { freezeClock, MONDAY_OPEN, setPrice } from '../trading/support/trading';
import { activeInvestor, balances, fundingBody, linkBankAccount } from '../wallet/support/wallet';
import { firmAccount } from '../fx/support/fx';
import { binary } from '../investors/fixtures';
import { allActivities, cents, fromCents, principalCents } from './support';

/** The scenario (tradeAcrossMarch, below), its confirmations and statement checked to the cent. */
describe('Trade confirmations and monthly statements', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  beforeAll(() => tradeAcrossMarch(), 180_000);

  it('makes one approved confirmation per trading day, matching the fills, in PDF and JSON', async () => {
    const confirmations = await documents('trade_confirmation');
    expect(confirmations.map((d) => [d.file_name, d.status, d.content_type])).toEqual([
      ['trade-confirmation-2049-03-02.pdf', 'approved', 'application/pdf'],
      ['trade-confirmation-2049-03-01.pdf', 'approved', 'application/pdf'],
    ]);
    const buyCash = principalCents('10', buyPrice);
    const monday = await json(confirmations[1].id);
    expect(monday).toEqual({
      object: 'trade_confirmation',
      account_id: account,
      trade_date: '2049-03-01',
      executions: [
        {
          order_id: buyOrder,
          symbol: 'AAPL',
          cusip: null,
          side: 'buy',
          quantity: '10',
          price: buyPrice,
          principal: fromCents(buyCash),
          commission: '1.00',
          fees: '0.00',
          net_amount: fromCents(-(buyCash + 100n)),
          trade_date: '2049-03-01',
          settlement_date: '2049-03-02',
          capacity: 'agent',
          accrued_interest: '0.00',
        },
      ],
    });
    const text = await pdf(confirmations[1].id);
    expect(text).toContain('Acme Invest');
    expect(text).toContain('Trade confirmation 2049-03-01');
    expect(text).toContain(`Order ${buyOrder}`);
    expect(text).toContain(`BUY 10 AAPL CUSIP n/a at ${buyPrice}`);
    expect(text).toContain('Settlement date 2049-03-02 Capacity agent');
    expect(text).toContain(
      `Principal ${fromCents(buyCash)} Accrued interest 0.00 Commission 1.00 Fees 0.00 Net amount ${fromCents(-(buyCash + 100n))}`,
    );
    const tuesday = await json(confirmations[0].id);
    expect(tuesday.executions).toEqual([
      expect.objectContaining({
        order_id: sellOrder,
        side: 'sell',
        quantity: '4',
        price: sellPrice,
        net_amount: fromCents(principalCents('4', sellPrice) - 100n),
        settlement_date: '2049-03-03',
      }),
    ]);
  });

  it('makes March’s statement agreeing with the fills, the activities and the ledger to the cent', async () => {
    const [statement] = await documents('account_statement');
    expect(statement).toMatchObject({ file_name: 'account-statement-2049-03.pdf', status: 'approved' });
    const data = await json(statement.id);
    const buyCash = principalCents('10', buyPrice);
    const sellCash = principalCents('4', sellPrice);
    const closing = 1_000_000n - buyCash - 100n + sellCash - 100n;
    expect(data.cash).toEqual([{ currency: 'USD', opening: '0.00', closing: fromCents(closing) }]);

    const feed = await allActivities(ctx, tenant.test, account);
    const march = feed.filter((a) => a.date <= '2049-03-31');
    expect(data.activities).toEqual(march);
    expect(march.reduce((s, a) => s + cents(a.net_amount), 0n)).toBe(closing);
    const interest = feed.filter((a) => a.activity_type === 'INT');
    expect(interest.map((a) => a.date)).toEqual(['2049-04-01']);
    const ledgerCash = cents((await balances(ctx, tenant.test, account))[0].cash);
    expect(ledgerCash - cents(interest[0].net_amount)).toBe(closing);

    const [position] = data.positions;
    expect(data.positions).toHaveLength(1);
    expect(position).toMatchObject({ symbol: 'AAPL', quantity: '6', currency: 'USD' });
    const value = principalCents('6', position.close_price);
    expect(position.market_value).toBe(fromCents(value));
    expect(data.equity).toEqual([{ currency: 'USD', amount: fromCents(closing + value) }]);
    const realized = divHalfEven(sellCash * 10n - buyCash * 4n, 10n);
    expect(data.totals).toEqual([
      {
        currency: 'USD',
        deposits: '10000.00',
        withdrawals: '0.00',
        dividends: '0.00',
        withholding: '0.00',
        interest: '0.00',
        fees: '-2.00',
        realized_gain_loss: fromCents(realized),
      },
    ]);
    expect(data.daily_equity).toHaveLength(31);
    expect(data.daily_equity[30]).toEqual({
      date: '2049-03-31',
      currency: 'USD',
      amount: fromCents(closing + value),
    });

    const text = await pdf(statement.id);
    expect(text).toContain('Acme Invest');
    expect(text).toContain('Account statement 2049-03-01 to 2049-03-31');
    expect(text).toMatch(new RegExp(`USD\\s+0\\.00\\s+${fromCents(closing).replace('.', '\\.')}`));
    expect(text).toContain(`Equity USD ${fromCents(closing + value)}`);
    expect(text).toContain('Daily equity (USD)');
    expect(text).toContain(`Realized ${fromCents(realized)}`);
    for (const a of march) {
      expect(text).toContain(a.id);
      expect(text).toMatch(
        new RegExp(`${a.activity_type}.*${a.net_amount.replace('.', '\\.')}\\s+USD\\s+${a.id}`),
      );
    }
  });

  it('announces each document with document.created', async () => {
    const res = await client().get('/v1/events?event=document.created&limit=10');
    expect(res.status).toBe(200);
    const docs = [...(await documents('trade_confirmation')), ...(await documents('account_statement'))];
    expect(new Set(res.body.data.map((e: any) => e.data.id))).toEqual(new Set(docs.map((d) => d.id)));
    expect(
      res.body.data.every((e: any) => e.data.investor_id === investorId && e.data.account_id === account),
    ).toBe(true);
  });

  it('lists the firm account\u2019s activities but makes it no document: documents are the investor\u2019s', async () => {
    const feed = await allActivities(ctx, tenant.test, firm);
    expect(feed.map((a) => [a.activity_type, a.order_id, a.qty, a.date])).toEqual([
      ['CSD', null, null, '2049-03-01'],
      ['FILL', firmOrder, '2', '2049-03-01'],
      ['FEE', firmOrder, null, '2049-03-01'],
    ]);
    const created = await client().get('/v1/events?event=document.created&limit=100');
    expect(created.body.data.filter((e: any) => e.data.account_id === firm)).toEqual([]);
    expect(created.body.data.length).toBeGreaterThan(0);
  });

  itLocal(
    'schedules no confirmation or statement job for the firm account, and no such job failed',
    async () => {
      const jobs: Array<{ kind: string; state: string; account: string }> = await ctx.dataSource.query(
        `SELECT kind, state, payload->>'accountId' AS account FROM scheduled_jobs
        WHERE tenant_id = $1 AND kind LIKE 'statements.%' ORDER BY kind, due_at`,
        [tenant.tenantId],
      );
      expect(jobs.filter((j) => j.account === firm)).toEqual([]);
      expect(jobs.filter((j) => j.state !== 'done')).toEqual([
        { kind: 'statements.account_statement', state: 'scheduled', account },
      ]);
      // A job for the firm account (one scheduled before the rule) runs without error and makes nothing.
      const registry = ctx.app!.get(JobRegistry);
      for (const [kind, payload] of [
        ['statements.account_statement', { accountId: firm, month: '2049-03' }],
        ['statements.trade_confirmation', { accountId: firm, tradeDate: '2049-03-01' }],
      ] as const) {
        await ctx.dataSource.transaction((manager) =>
          registry.get(kind).run(manager, {
            id: 'firm',
            tenantId: tenant.tenantId,
            livemode: false,
            kind,
            dueAt: new Date('2049-04-01T13:00:00Z'),
            payload,
            now: new Date('2049-04-01T14:00:00Z'),
            attempts: 1,
          }),
        );
      }
      const [{ count }] = await ctx.dataSource.query(
        `SELECT count(*)::int AS count FROM documents WHERE tenant_id = $1 AND account_id = $2`,
        [tenant.tenantId, firm],
      );
      expect(count).toBe(0);
    },
  );

  itLocal('a retried job makes no second document', async () => {
    const registry = ctx.app!.get(JobRegistry);
    for (const [kind, payload] of [
      ['statements.account_statement', { accountId: account, month: '2049-03' }],
      ['statements.trade_confirmation', { accountId: account, tradeDate: '2049-03-01' }],
    ] as const) {
      await ctx.dataSource.transaction((manager) =>
        registry.get(kind).run(manager, {
          id: 'retry',
          tenantId: tenant.tenantId,
          livemode: false,
          kind,
          dueAt: new Date('2049-04-01T13:00:00Z'),
          payload,
          now: new Date('2049-04-01T14:00:00Z'),
          attempts: 1,
        }),
      );
    }
    expect(await documents('account_statement')).toHaveLength(1);
    expect(await documents('trade_confirmation')).toHaveLength(2);
  });

  it('branding refuses a colour not written #rrggbb, naming it', async () => {
    const res = await ctx
      .http()
      .patch(`/v1/sandbox/tenants/${tenant.tenantId}/branding`)
      .set('Authorization', `Bearer ${adminToken()}`)
      .send({ accent_color: 'green' });
    expectSvcError(res, 'SVC-400-001', { param: 'accent_color' });
  });

  it('a partner cannot upload a document of a generated type', async () => {
    const res = await ctx
      .http()
      .post(`/v1/investors/${investorId}/documents`)
      .set('Authorization', basic(tenant.test))
      .field('type', 'account_statement')
      .attach('file', Buffer.from('%PDF-1.4\n%%EOF\n'), {
        filename: 'x.pdf',
        contentType: 'application/pdf',
      });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('type');
  });

  // What tradeAcrossMarch made and the cases read back.
  let investorId: string;
  let account: string;
  let buyPrice: string;
  let sellPrice: string;
  let buyOrder: string;
  let sellOrder: string;
  let firm: string;
  let firmOrder: string;

  /**
   * The scenario: a partner funds an account, trades on two days and moves the test clock into
   * the next month. A confirmation exists for each trading day and the month's statement shows opening
   * and closing cash, positions, equity and every activity; the PDF text (pdftotext), the JSON, the
   * activities feed and the ledger's balances agree to the cent, each checked against amounts computed
   * here from the fills.
   *
   * Made here: commission and branding terms, a funded investor buying 10 AAPL on Monday 1 March (and
   * the firm account buying 2), selling 4 on Tuesday, then the clock moved into April.
   */
  async function tradeAcrossMarch(): Promise<void> {
    await sandboxTerms(ctx, tenant.tenantId, 'commission', { commission_type: 'notional', amount: '1.00' });
    expect(
      await sandboxTerms(ctx, tenant.tenantId, 'branding', {
        display_name: 'Acme Invest',
        accent_color: '#0a7d5a',
      }),
    ).toEqual({ tenant_id: tenant.tenantId, display_name: 'Acme Invest', accent_color: '#0a7d5a' });
    await freezeClock(ctx, tenant.test, MONDAY_OPEN);
    const investor = await activeInvestor(ctx, tenant.test);
    investorId = investor.id;
    account = investor.account_id;
    const bank = await linkBankAccount(ctx, tenant.test, investor.id);
    const deposit = await client().post(
      `/v1/wallet/accounts/${account}/funding`,
      fundingBody(bank.id, '10000.00'),
    );
    await client().post(`/v1/test_helpers/wallet/transactions/${deposit.body.transaction_id}/settle`);
    buyPrice = (await setPrice(ctx, tenant.test, 'AAPL', '187.25')).ask;
    const order = { symbol: 'AAPL', type: 'market', time_in_force: 'day' };
    const buy = await client().post(`/v1/investors/${investorId}/orders`, {
      ...order,
      side: 'buy',
      quantity: '10',
    });
    expect(buy.body.status).toBe('filled');
    buyOrder = buy.body.id;
    // The firm account trades the same day: its activities are listed, but it has no investor.
    firm = await firmAccount(ctx, tenant.test, '5000.00');
    const firmBuy = await client().post('/v1/firm-account/orders', { ...order, side: 'buy', quantity: '2' });
    expect(firmBuy.body.status).toBe('filled');
    firmOrder = firmBuy.body.id;
    // Tuesday: the confirmation of Monday is made at 07:00 New York (12:00Z).
    await freezeClock(ctx, tenant.test, '2049-03-02T15:00:00Z');
    sellPrice = (await setPrice(ctx, tenant.test, 'AAPL', '190.10')).bid;
    const sell = await client().post(`/v1/investors/${investorId}/orders`, {
      ...order,
      side: 'sell',
      quantity: '4',
    });
    expect(sell.body.status).toBe('filled');
    sellOrder = sell.body.id;
    // Into April: Tuesday's confirmation, March's interest (09:00 New York, 1 April) and statement.
    await freezeClock(ctx, tenant.test, '2049-04-01T14:00:00Z');
  }

  function client() {
    return ctx.as(tenant.test);
  }

  async function documents(type: string) {
    return (await client().get(`/v1/investors/${investorId}/documents?type=${type}`)).body.data as Array<
      Record<string, any>
    >;
  }

  async function pdf(id: string) {
    const res = await ctx
      .http()
      .get(`/v1/investors/${investorId}/documents/${id}/download`)
      .set('Authorization', basic(tenant.test))
      .buffer(true)
      .parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    return pdfText(res.body as Buffer);
  }

  async function json(id: string) {
    const res = await client()
      .get(`/v1/investors/${investorId}/documents/${id}/download`)
      .set('Accept', 'application/json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    return res.body as Record<string, any>;
  }
});

/** pdftotext (poppler-utils) over the bytes, keeping each drawn line on one line. */
function pdfText(bytes: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'statement-'));
  const file = join(dir, 'document.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** a / b rounded half-even, in integers. */
function divHalfEven(a: bigint, b: bigint): bigint {
  const q = a / b;
  const r = a % b;
  const twice = 2n * (r < 0n ? -r : r);
  if (twice > b || (twice === b && q % 2n !== 0n)) {
    return q + (a < 0n ? -1n : 1n);
  }
  return q;
}
