import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import { TestClockModule } from 'src/core/clock/test-clock.module';
import { TestClockService } from 'src/core/clock/test-clock.service';
import { CoreModule } from 'src/core/core.module';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { QueueModule } from 'src/core/queue/queue.module';
import { SchedulerModule } from 'src/core/scheduler/scheduler.module';
import { AccountLifecycleService } from 'src/modules/accounts/account-lifecycle.service';
import { AssetsModule } from 'src/modules/assets/assets.module';
import { PriceTestHelpersService } from 'src/modules/assets/price-test-helpers.service';
import { EventsModule } from 'src/modules/events/events.module';
import { EventsReadService } from 'src/modules/events/events.service';
import type { PlaceOrderDto } from 'src/modules/trading/dto/place-order.dto';
import { InvestorsModule } from 'src/modules/investors/investors.module';
import { LedgerService } from 'src/modules/ledger/ledger.service';
import { OrdersRepository } from 'src/modules/trading/orders.repository';
import { TradingModule } from 'src/modules/trading/trading.module';
import { MoneyStates, testKeyOf } from '../../support/money-states';
import { createServiceContext, ServiceContext } from '../../support/service-context';

/**
 * What placing an order needs, assembled as the API assembles it (src/app.module.ts) without HTTP:
 * core (idempotent transactions, clock, outbox), the scheduler on the queue (session jobs, no
 * consumers), trading, investors (accounts, KYC), assets (the price helper), events (the outbox's
 * read side) and the test clock helper.
 */
export function placeOrderContext(): Promise<ServiceContext> {
  return createServiceContext([
    CoreModule,
    QueueModule.forRoot({ consumers: false }),
    SchedulerModule,
    TestClockModule,
    TradingModule,
    InvestorsModule,
    AssetsModule,
    EventsModule,
  ]);
}

/** A tenant-level test-mode key of `tenantId` (as the money specs make it). */
export const partnerKey = testKeyOf;

/** The partner's test state: its clock frozen at `at` and last prices fixed (symbol to price). */
export async function marketState(
  ctx: ServiceContext,
  principal: Principal,
  at: string,
  prices: Record<string, string>,
) {
  await ctx.app.get(TestClockService).move(principal, { frozen_time: at }, undefined);
  for (const [symbol, price] of Object.entries(prices)) {
    await ctx.app
      .get(PriceTestHelpersService)
      .setPrices(principal, { symbol, price }, '/v1/test_helpers/prices', undefined);
  }
}

/** An investor whose account is ACTIVE (KYC approved by the test helper's service), with `cash` settled. */
export async function fundedInvestor(ctx: ServiceContext, principal: Principal, cash: string) {
  const investor = await new MoneyStates(ctx.app).activeInvestor(principal);
  const accountId = investor.accountId;
  if (new Decimal(cash).gt(0)) {
    // A settled deposit as the transfers module books it (transfer-ledger.ts): bank clearing to the
    // investor's cash. Posted through the ledger's service instead of a funding source, deposit and
    // settle helper, which belong to the transfers module and are not what this spec is about.
    const at = await ctx.app.get(ClockService).now(principal);
    await ctx.dataSource.transaction((m) =>
      ctx.app.get(LedgerService).post(m, {
        tenantId: principal.tenantId,
        livemode: false,
        journalKey: `deposit:${randomUUID()}`,
        kind: 'deposit.settled',
        effectiveAt: at,
        entries: [
          { account: { kind: 'bank_clearing', currency: 'USD' }, direction: 'debit', amount: cash },
          {
            account: { kind: 'investor_cash', ownerId: accountId, currency: 'USD' },
            direction: 'credit',
            amount: cash,
          },
        ],
      }),
    );
  }
  return { id: investor.investorId, accountId };
}

/** Suspends an investor's account through the account actions' service. */
export function suspend(ctx: ServiceContext, principal: Principal, accountId: string) {
  return ctx.app.get(AccountLifecycleService).applyAction(principal, accountId, 'suspend', undefined);
}

/** What the account's ledger shows: settled cash, buying power, order holds (USD, 2 places). */
export async function cashOf(ctx: ServiceContext, principal: Principal, accountId: string) {
  const usd = (await ctx.app.get(LedgerService).balances(principal, accountId)).find(
    (b) => b.currency === 'USD',
  );
  const text = (d: Decimal | undefined) => (d ?? new Decimal(0)).toFixed(2);
  return { cash: text(usd?.cash), available: text(usd?.available), orderHolds: text(usd?.orderHolds) };
}

/** The account's orders, newest first. */
export function ordersOf(ctx: ServiceContext, principal: Principal, accountId: string) {
  return ctx.app.get(OrdersRepository).listForAccount(principal, accountId, { limit: 500, offset: 0 });
}

/** The account's `order.accepted` events in the partner's outbox, as the events API reads them. */
export async function acceptedEvents(ctx: ServiceContext, principal: Principal, accountId: string) {
  const page = await ctx.app
    .get(EventsReadService)
    .list(principal, { event: 'order.accepted', limit: 100 }, '/v1/events');
  return page.data.filter((e) => e.data.account_id === accountId);
}

/** A day limit buy of AAPL. */
export function limitBuy(quantity: string, limitPrice: string): PlaceOrderDto {
  return {
    symbol: 'AAPL',
    side: 'buy',
    type: 'limit',
    time_in_force: 'day',
    quantity,
    limit_price: limitPrice,
  };
}

/** What a placement expected to be refused threw (an Error saying so when it was placed instead). */
export function refusal(placement: Promise<unknown>): Promise<unknown> {
  return placement.then(
    () => new Error('the order was placed'),
    (err: unknown) => err,
  );
}

/** An Idempotency-Key as the guard hands it to a route that keeps its key in the transaction. */
export function idempotencyKey(principal: Principal, key: string, fingerprint: string): IdempotentRequest {
  return {
    scope: { tenantId: principal.tenantId, livemode: false, principal: '', key },
    token: '',
    status: 201,
    settled: false,
    fingerprint,
  };
}
