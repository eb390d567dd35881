import Decimal from 'decimal.js';
import { IdempotencyKeyReusedError } from 'src/core/idempotency/idempotency-errors';
import { IdempotentReplay } from 'src/core/idempotency/idempotent-replay';
import { AccountNotActiveError } from 'src/modules/accounts/account-errors';
import { LedgerAudit } from 'src/modules/ledger/ledger-audit.service';
import { InsufficientFundsError } from 'src/modules/ledger/ledger-errors';
import type { PlaceOrderDto } from 'src/modules/trading/dto/place-order.dto';
import { AssetNotTradableError } from 'src/modules/trading/trading-errors';
import { PlaceOrder } from 'src/modules/trading/use-cases/place-order.use-case';
import { madeBeforeAll } from '../support/made-before-all';
import { describeLocal } from '../support/service-context';
import * as state from './support/place-order-state';
import { limitBuy, refusal } from './support/place-order-state';
import { MONDAY_OPEN } from './support/trading';
import { NO_LEDGER_DISCREPANCIES } from '../support/ledger-audit';

/** PlaceOrder with its modules on the file's own database: what placement holds, writes and refuses. */
describeLocal('Placing an order (use-case on a real database)', () => {
  const ctx = madeBeforeAll('The service context', () => state.placeOrderContext());
  const place = madeBeforeAll('PlaceOrder', () => Promise.resolve(ctx.app.get(PlaceOrder)));
  const partner = madeBeforeAll('The partner', async () => state.partnerKey(await ctx.createTenant()));
  // Monday 10:00 New York (session open), AAPL last 200.00: its ask tops every limit below, so buys rest.
  beforeAll(() => state.marketState(ctx, partner, MONDAY_OPEN, { AAPL: '200.00' }));

  it('accepts a limit buy in the open session: holds quantity × limit price of the cash, writes order.accepted', async () => {
    const investor = await state.fundedInvestor(ctx, partner, '10000.00');
    const order = await place.execute(partner, investor.id, limitBuy('7', '123.45'), undefined);

    expect(order).toMatchObject({
      object: 'order',
      status: 'accepted',
      account_id: investor.accountId,
      symbol: 'AAPL',
      side: 'buy',
      type: 'limit',
      quantity: '7',
      limit_price: '123.45',
      filled_quantity: '0',
      // Business time is the tenant's frozen test clock, not the machine's.
      submitted_at: new Date(MONDAY_OPEN).toISOString(),
    });
    const held = new Decimal('7').times('123.45'); // 864.15; the tenant charges no commission
    expect(await state.cashOf(ctx, partner, investor.accountId)).toEqual({
      cash: '10000.00',
      available: new Decimal('10000.00').minus(held).toFixed(2),
      orderHolds: held.toFixed(2),
    });
    const events = await state.acceptedEvents(ctx, partner, investor.accountId);
    expect(events.map((e) => [e.event, e.data.id, e.data.status])).toEqual([
      ['order.accepted', order.id, 'accepted'],
    ]);
    expect(await state.ordersOf(ctx, partner, investor.accountId)).toEqual([
      expect.objectContaining({ id: order.id, status: 'accepted', hold_amount: held.toFixed(2) }),
    ]);
  });

  it('refuses a buy beyond the buying power with InsufficientFundsError naming quantity, holding nothing', async () => {
    const investor = await state.fundedInvestor(ctx, partner, '1000.00');
    // 10 × 100.01 = 1,000.10: ten cents over the cash.
    const refused = await refusal(place.execute(partner, investor.id, limitBuy('10', '100.01'), undefined));
    expect(refused).toBeInstanceOf(InsufficientFundsError);
    expect(refused).toMatchObject({ code: 'SVC-422-002', param: 'quantity' });
    await expectNothingPlaced(investor.accountId, '1000.00');
    // The same order a cent cheaper is exactly covered.
    await place.execute(partner, investor.id, limitBuy('10', '100.00'), undefined);
    expect((await state.cashOf(ctx, partner, investor.accountId)).available).toBe('0.00');
  });

  it('refuses an asset the account may not trade with AssetNotTradableError naming symbol', async () => {
    const investor = await state.fundedInvestor(ctx, partner, '1000.00');
    // Crypto is not among the account's enabled_assets (us_equity and etf by default).
    const crypto = {
      ...limitBuy('0.001', '100.00'),
      symbol: 'BTC/USD',
      time_in_force: 'gtc',
    } as PlaceOrderDto;
    const notEnabled = await refusal(place.execute(partner, investor.id, crypto, undefined));
    expect(notEnabled).toBeInstanceOf(AssetNotTradableError);
    expect(notEnabled).toMatchObject({ code: 'SVC-422-006', param: 'symbol' });
    expect((notEnabled as Error).message).toContain('enabled_assets');
    // A matured treasury bill: inactive and not tradable for anyone.
    const fixedIncome = { ...partner, fixedIncomeEnabled: true };
    const matured = { ...limitBuy('1000', '99.00'), symbol: 'B 08/08/24' } as PlaceOrderDto;
    const inactive = await refusal(place.execute(fixedIncome, investor.id, matured, undefined));
    expect(inactive).toBeInstanceOf(AssetNotTradableError);
    expect(inactive).toMatchObject({ code: 'SVC-422-006', param: 'symbol' });
    expect((inactive as Error).message).toContain('is not tradable');
    await expectNothingPlaced(investor.accountId, '1000.00');
  });

  it('refuses an account that is not ACTIVE with AccountNotActiveError naming investor_id', async () => {
    const investor = await state.fundedInvestor(ctx, partner, '1000.00');
    await state.suspend(ctx, partner, investor.accountId);
    const refused = await refusal(place.execute(partner, investor.id, limitBuy('1', '10.00'), undefined));
    expect(refused).toBeInstanceOf(AccountNotActiveError);
    expect(refused).toMatchObject({ code: 'SVC-422-001', param: 'investor_id' });
    expect((refused as Error).message).toContain('SUSPENDED');
    await expectNothingPlaced(investor.accountId, '1000.00');
  });

  it('20 concurrent buys against cash for 7 of them: 7 accepted, 13 refused, cash never below zero', async () => {
    const perOrder = new Decimal('5').times('100.00'); // 500.00 held by each
    const cash = perOrder.times(7).plus('123.45'); // 3,623.45: seven orders and change
    const investor = await state.fundedInvestor(ctx, partner, cash.toFixed(2));
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        place.execute(partner, investor.id, limitBuy('5', '100.00'), undefined),
      ),
    );

    const accepted = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(accepted).toHaveLength(7);
    expect(refused.map((r) => r.reason instanceof InsufficientFundsError && r.reason.param)).toEqual(
      Array.from({ length: 13 }, () => 'quantity'),
    );
    expect(await state.cashOf(ctx, partner, investor.accountId)).toEqual({
      cash: cash.toFixed(2),
      available: cash.minus(perOrder.times(7)).toFixed(2),
      orderHolds: perOrder.times(7).toFixed(2),
    });
    expect(await state.ordersOf(ctx, partner, investor.accountId)).toHaveLength(7);
    expect(await state.acceptedEvents(ctx, partner, investor.accountId)).toHaveLength(7);
    expect(await ctx.app.get(LedgerAudit).check(partner.tenantId)).toEqual(NO_LEDGER_DISCREPANCIES);
  });

  it('an Idempotency-Key replays the first answer and places once; the key with another body is refused', async () => {
    const investor = await state.fundedInvestor(ctx, partner, '1000.00');
    const body = limitBuy('2', '150.00');
    const first = await place.execute(
      partner,
      investor.id,
      body,
      state.idempotencyKey(partner, 'k-1', 'fp-a'),
    );

    const again = await refusal(
      place.execute(partner, investor.id, body, state.idempotencyKey(partner, 'k-1', 'fp-a')),
    );
    expect(again).toBeInstanceOf(IdempotentReplay);
    expect(again).toMatchObject({ status: 201, body: first });
    const other = limitBuy('3', '150.00');
    const reused = await refusal(
      place.execute(partner, investor.id, other, state.idempotencyKey(partner, 'k-1', 'fp-b')),
    );
    expect(reused).toBeInstanceOf(IdempotencyKeyReusedError);
    expect(reused).toMatchObject({ code: 'SVC-409-002', param: 'Idempotency-Key' });

    expect((await state.ordersOf(ctx, partner, investor.accountId)).map((o) => o.id)).toEqual([first.id]);
    expect(await state.cashOf(ctx, partner, investor.accountId)).toMatchObject({
      orderHolds: new Decimal('2').times('150.00').toFixed(2),
    });
    expect(await state.acceptedEvents(ctx, partner, investor.accountId)).toHaveLength(1);
  });

  /** Nothing of a refused order: no order row, no hold, no `order.accepted`. */
  async function expectNothingPlaced(accountId: string, cash: string) {
    expect(await state.ordersOf(ctx, partner, accountId)).toEqual([]);
    expect(await state.cashOf(ctx, partner, accountId)).toEqual({
      cash,
      available: cash,
      orderHolds: '0.00',
    });
    expect(await state.acceptedEvents(ctx, partner, accountId)).toEqual([]);
  }
});
