import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import type { WriteBatch } from 'src/core/database/write-batch';
import { EventsService } from 'src/core/events/events.service';
import { ServiceError } from 'src/core/errors/service-error';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { newId } from 'src/core/ids/ids';
import { Money } from 'src/core/money/money';
import { assertAccountActive, AccountsService } from 'src/modules/accounts/accounts.service';
import { AssetsService, ResolvedAsset } from 'src/modules/assets/assets.service';
import { LedgerService } from 'src/modules/ledger/ledger.service';
import { addBusinessDays, getMarket, isBusinessDay, wallClock } from 'src/modules/markets/calendar';
import { PricedQuote, PricingService } from 'src/modules/pricing/pricing.service';
import { CommissionSettings } from 'src/modules/trading/commissions';
import type { OrderDto } from 'src/modules/trading/dto/order.dto';
import type { PlaceOrderDto } from 'src/modules/trading/dto/place-order.dto';
import { changes, decide, Phase } from 'src/modules/trading/engine/fill-rules';
import { OrderEngine } from 'src/modules/trading/engine/order-engine.service';
import { phaseAt } from 'src/modules/trading/engine/sessions';
import {
  checkBondIncrement,
  checkOrderShape,
  checkOrderValue,
  checkSessionForTimeInForce,
  enabledAssetOf,
} from 'src/modules/trading/order-rules';
import { isBondClass, OPEN_STATUSES, OrderRow } from 'src/modules/trading/order-types';
import { cashHold, covers, fundsParam, holdAmount, shortSale } from 'src/modules/trading/order-holds';
import { envelopeOrder } from 'src/modules/trading/order-views';
import { OrdersRepository } from 'src/modules/trading/orders.repository';
import { PositionsRepository } from 'src/modules/trading/positions.repository';

/**
 * Placing an order, one transaction: the account (404 outside scope), the asset and the order's shape
 * (400), fixed-income entitlement (403 SVC-403-002), then the business rules (422: account status,
 * tradable class, bond increment, session for the time_in_force, buying power or position), the hold
 * of cash (buys) or units (sells), the order row, `order.accepted`, an immediate evaluation (a
 * marketable order in an open session fills at once), its session events, the idempotent response.
 */
@Injectable()
export class PlaceOrder {
  constructor(
    private readonly transactions: IdempotentTransaction,
    private readonly accounts: AccountsService,
    private readonly assets: AssetsService,
    private readonly pricing: PricingService,
    private readonly clock: ClockService,
    private readonly ledger: LedgerService,
    private readonly events: EventsService,
    private readonly orders: OrdersRepository,
    private readonly positions: PositionsRepository,
    private readonly commissions: CommissionSettings,
    private readonly engine: OrderEngine,
  ) {}

  execute(
    principal: Principal,
    investorId: string,
    body: PlaceOrderDto,
    idem: IdempotentRequest | undefined,
  ): Promise<OrderDto> {
    return this.transactions.run(idem, async (manager, batch, reads) => {
      // The account goes out in one round trip with the Idempotency-Key's check.
      const accountRead = this.accounts.shareForTradingIn(reads, principal, investorId);
      await reads.run(manager);
      const account = accountRead();
      const asset = await this.assets.resolveKeptInScope(principal, body.symbol, manager);
      if (!asset) {
        throw ServiceError.invalid(
          'symbol',
          `No such asset: '${body.symbol}'. Send a ticker, asset id, CUSIP or ISIN from /v1/assets/search.`,
        );
      }
      const row = asset.row;
      checkOrderShape(body, row);
      const bond = isBondClass(row.class);
      if (bond && !principal.fixedIncomeEnabled) {
        throw new ServiceError('SVC-403-002');
      }
      assertAccountActive(account, 'investor_id');
      const needs = enabledAssetOf(row.class);
      if (!row.tradable || row.status !== 'active' || needs === null) {
        throw new ServiceError(
          'SVC-422-006',
          `${row.symbol} is not tradable. Pick a tradable asset from /v1/assets/search.`,
          'symbol',
        );
      }
      if (!(account.enabled_assets as string[]).includes(needs)) {
        throw new ServiceError(
          'SVC-422-006',
          `${row.symbol} is ${needs}, which is not in the account's enabled_assets (${account.enabled_assets.join(', ')}). Add ${needs} to enabled_assets first.`,
          'symbol',
        );
      }
      if (needs === 'crypto' && account.crypto_status !== 'ACTIVE') {
        throw new ServiceError(
          'SVC-422-006',
          `The account's crypto_status is ${account.crypto_status}; crypto needs ACTIVE.`,
          'symbol',
        );
      }
      const now = await this.clock.now(principal, manager);
      let settlementDate: string | null = null;
      if (bond) {
        checkBondIncrement(body.quantity as string, row.b_min_increment);
        settlementDate = this.settlementDate(asset, body.settlement_date, now);
      }
      checkSessionForTimeInForce(body, row.market, now);
      const clientOrderId = body.client_order_id ?? newId('order').slice(4);
      const quote = await this.pricing.quote(asset.priced, asset.override, now);
      // Needs the quote, so it comes once the asset is known to trade here (its session checked).
      checkOrderValue(body, row, quote);
      const terms = await this.commissions.terms(principal.tenantId, manager);
      const order: OrderRow = {
        id: newId('order'),
        tenant_id: principal.tenantId,
        livemode: principal.livemode,
        investor_id: account.investor_id,
        account_id: account.id,
        asset_id: row.id,
        symbol: row.symbol,
        asset_class: row.class,
        market: row.market,
        currency: row.currency,
        side: body.side,
        type: body.type,
        time_in_force: body.time_in_force,
        quantity: body.quantity === undefined ? null : new Money(body.quantity).toFixed(),
        notional: body.notional === undefined ? null : new Money(body.notional).toFixed(),
        limit_price: body.limit_price === undefined ? null : new Money(body.limit_price).toFixed(),
        stop_price: body.stop_price === undefined ? null : new Money(body.stop_price).toFixed(),
        trail_percent: body.trail_percent === undefined ? null : new Money(body.trail_percent).toFixed(),
        trail_price: body.trail_price === undefined ? null : new Money(body.trail_price).toFixed(),
        water_mark: null,
        triggered: false,
        extended_hours: body.extended_hours ?? false,
        client_order_id: clientOrderId,
        status: 'accepted',
        filled_quantity: '0',
        filled_notional: '0',
        fill_count: 0,
        commission: '0',
        commission_type: terms.type,
        commission_rate: terms.amount.toFixed(),
        hold_amount: '0',
        hold_used: '0',
        settlement_date: settlementDate,
        reject_reason: null,
        cancel_reason: null,
        metadata: body.metadata ?? {},
        created_at: now,
        updated_at: now,
        filled_at: null,
        canceled_at: null,
      };
      // Sells reserve units of the position; what is free of it is read before the order is written.
      const free =
        order.side === 'sell'
          ? new Money(await this.positions.available(manager, order.account_id, order.asset_id))
          : null;
      const accrued = order.settlement_date
        ? this.pricing.bondAccrued(asset.priced, order.settlement_date)
        : null;
      order.hold_amount = holdAmount(order, quote, free, accrued).toFixed();
      const phase = phaseAt(row.market, now);
      if (changes(order, decide(order, quote, phase))) {
        return this.acceptAndEvaluate(manager, order, asset, quote, free, phase, now);
      }
      // A resting order (the common case): the order, its hold, `order.accepted` and its session jobs
      // go out in one statement with the stored response. The statement's checks refuse in order: the
      // client_order_id taken (400), then buying power or the position (422).
      this.orders.insertInto(batch, order, () => {
        throw clientOrderIdTaken(order);
      });
      await this.holdInto(manager, batch, order, free, quote, now);
      this.events.emitInto(batch, {
        tenantId: order.tenant_id,
        livemode: order.livemode,
        event: 'order.accepted',
        data: { ...envelopeOrder(order) },
      });
      this.engine.scheduleSessionEventsInto(batch, order, now);
      return envelopeOrder(order);
    });
  }

  /**
   * An order that trades, is canceled or moves its water mark as soon as it is accepted: written at
   * once (order, hold, `order.accepted`) so the evaluation's fill finds the row and its hold, then
   * evaluated and read back as it ends up.
   */
  private async acceptAndEvaluate(
    manager: EntityManager,
    order: OrderRow,
    asset: ResolvedAsset,
    quote: PricedQuote,
    free: Decimal | null,
    phase: Phase,
    now: Date,
  ): Promise<OrderDto> {
    // The row as stored (canonical numerics, jsonb metadata); none when the client_order_id is taken.
    const accepted = await this.orders.insertUnlessClientOrderIdTaken(manager, order);
    if (!accepted) {
      throw clientOrderIdTaken(order);
    }
    await this.hold(manager, accepted, free, quote, now);
    await this.events.emit(manager, {
      tenantId: accepted.tenant_id,
      livemode: accepted.livemode,
      event: 'order.accepted',
      data: { ...envelopeOrder(accepted) },
    });
    const changed = await this.engine.evaluate(manager, accepted, asset, quote, phase, now);
    const scope = { tenantId: order.tenant_id, livemode: order.livemode };
    const current = changed
      ? ((await this.orders.find(scope, order.account_id, order.id, manager)) as OrderRow)
      : accepted;
    if (OPEN_STATUSES.includes(current.status)) {
      await this.engine.scheduleSessionEvents(manager, current, now);
    }
    return envelopeOrder(current);
  }

  /**
   * Bonds: the settlement date sent (a business day on or after the standard one) or the standard one:
   * T+1 for treasuries and T+2 for corporates on the market calendar (the spec's rule, whatever the
   * reference data's settlement_period says), the asset's own period for other bond types.
   */
  private settlementDate(asset: ResolvedAsset, requested: string | undefined, now: Date): string {
    const bondType = String(asset.row.b_bond_type);
    const period =
      bondType === 'treasury' ? 1 : bondType === 'corporate' ? 2 : (asset.priced.bond?.settlementPeriod ?? 1);
    const market = getMarket(asset.row.market);
    const tradeDate = wallClock(now.getTime(), market?.timezone ?? 'America/New_York').date;
    const standard = addBusinessDays(market ? asset.row.market : 'XNYS', tradeDate, period);
    if (requested === undefined) {
      return standard;
    }
    if (
      Number.isNaN(Date.parse(`${requested}T00:00:00Z`)) ||
      requested < standard ||
      !isBusinessDay(market ? asset.row.market : 'XNYS', requested)
    ) {
      throw ServiceError.invalid(
        'settlement_date',
        `settlement_date must be a business day on or after ${standard} (T+${period}).`,
      );
    }
    return requested;
  }

  /**
   * Holds what `holdAmount` computed (stored on the order): cash in the ledger for buys
   * (422 SVC-422-002 without the buying power), units of the position for sells (422 SVC-422-003).
   */
  private async hold(
    manager: EntityManager,
    order: OrderRow,
    free: Decimal | null,
    quote: PricedQuote,
    now: Date,
  ): Promise<void> {
    if (order.side === 'sell') {
      if (
        !covers(order, free, quote) ||
        !(await this.positions.reserve(manager, order.account_id, order.asset_id, order.hold_amount))
      ) {
        throw shortSale(order, free, quote);
      }
      return;
    }
    await this.ledger.hold(manager, cashHold(order, now), { insufficientFundsParam: fundsParam(order) });
  }

  /** hold() as statements of the placement's batch: the refusal comes when the batch runs. */
  private async holdInto(
    manager: EntityManager,
    batch: WriteBatch,
    order: OrderRow,
    free: Decimal | null,
    quote: PricedQuote,
    now: Date,
  ): Promise<void> {
    if (order.side === 'sell') {
      const covered = covers(order, free, quote);
      this.positions.reserveInto(batch, order.account_id, order.asset_id, order.hold_amount, (reserved) => {
        if (!covered || !reserved) {
          throw shortSale(order, free, quote);
        }
      });
      return;
    }
    await this.ledger.holdInto(manager, batch, cashHold(order, now), {
      insufficientFundsParam: fundsParam(order),
    });
  }
}

function clientOrderIdTaken(order: OrderRow): ServiceError {
  return ServiceError.invalid(
    'client_order_id',
    `client_order_id '${order.client_order_id}' is already used by an order of this account: send a new one.`,
  );
}
