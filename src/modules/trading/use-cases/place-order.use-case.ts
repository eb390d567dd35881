import { Injectable } from '@nestjs/common';
import type Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import { assertFixedIncomeEnabled } from 'src/core/auth/access.guard';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import type { ReadBatch } from 'src/core/database/read-batch';
import type { WriteBatch } from 'src/core/database/write-batch';
import { ServiceError } from 'src/core/errors/service-error';
import { EventsService } from 'src/core/events/events.service';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { Money } from 'src/core/money/money';
import { assertAccountActive, AccountsService, TradingAccount } from 'src/modules/accounts/accounts.service';
import { AssetsService, ResolvedAsset } from 'src/modules/assets/assets.service';
import { LedgerService } from 'src/modules/ledger/ledger.service';
import { PricedQuote, PricingService } from 'src/modules/pricing/pricing.service';
import { CommissionSettings } from 'src/modules/trading/commissions';
import type { OrderDto } from 'src/modules/trading/dto/order.dto';
import type { PlaceOrderDto } from 'src/modules/trading/dto/place-order.dto';
import { changes, decide, Phase } from 'src/modules/trading/engine/fill-rules';
import { OrderEngine } from 'src/modules/trading/engine/order-engine.service';
import { SessionEvents } from 'src/modules/trading/engine/session-events';
import { phaseAt } from 'src/modules/trading/engine/sessions';
import { buildOrderRow } from 'src/modules/trading/order-builder';
import { cashHold, covers, fundsParam, holdAmount, shortSale } from 'src/modules/trading/order-holds';
import {
  checkBondIncrement,
  checkOrderValue,
  checkSessionForTimeInForce,
  checkTradable,
} from 'src/modules/trading/order-rules';
import { checkOrderShape } from 'src/modules/trading/order-shape';
import { isBondClass, OPEN_STATUSES, OrderRow } from 'src/modules/trading/order-types';
import { envelopeOrder } from 'src/modules/trading/order-views';
import { OrdersRepository } from 'src/modules/trading/orders.repository';
import { PositionsRepository } from 'src/modules/trading/positions.repository';
import { bondSettlementDate } from 'src/modules/trading/settlement-date';
import { ClientOrderIdTakenError } from 'src/modules/trading/trading-errors';

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
    private readonly sessionEvents: SessionEvents,
  ) {}

  execute(
    principal: Principal,
    investorId: string,
    body: PlaceOrderDto,
    idem: IdempotentRequest | undefined,
  ): Promise<OrderDto> {
    return this.place(principal, body, idem, 'investor_id', (reads) =>
      this.accounts.shareForTradingIn(reads, principal, investorId),
    );
  }

  /** POST /firm-account/orders: the same placement on the tenant's firm account (tenant-level keys). */
  executeForFirm(
    principal: Principal,
    body: PlaceOrderDto,
    idem: IdempotentRequest | undefined,
  ): Promise<OrderDto> {
    return this.place(principal, body, idem, 'account_id', (reads) =>
      this.accounts.shareFirmForTradingIn(reads, principal),
    );
  }

  /** The placement workflow (see the class comment), in the request's one transaction. */
  private place(
    principal: Principal,
    body: PlaceOrderDto,
    idem: IdempotentRequest | undefined,
    accountParam: string,
    readAccount: (reads: ReadBatch) => () => TradingAccount,
  ): Promise<OrderDto> {
    return this.transactions.run(idem, async (manager, batch, reads) => {
      // The account goes out in one round trip with the Idempotency-Key's check.
      const accountRead = readAccount(reads);
      await reads.run(manager);
      const account = accountRead();
      const asset = await this.resolveAsset(principal, body.symbol, manager);
      checkOrderShape(body, asset.row);
      if (isBondClass(asset.row.class)) {
        assertFixedIncomeEnabled(principal);
      }
      assertAccountActive(account, accountParam);
      checkTradable(asset.row, account);
      const now = await this.clock.now(principal, manager);
      const settlementDate = bondTerms(asset, body, now);
      checkSessionForTimeInForce(body, asset.row.market, now);
      const quote = await this.pricing.quote(asset.priced, asset.override, now);
      // Needs the quote, so it comes once the asset is known to trade here (its session checked).
      checkOrderValue(body, asset.row, quote);
      const commission = await this.commissions.terms(principal.tenantId, manager);
      const order = buildOrderRow({
        scope: principal,
        account,
        asset: asset.row,
        body,
        commission,
        settlementDate,
        now,
      });
      // Sells reserve units of the position; what is free of it is read before the order is written.
      const free =
        order.side === 'sell'
          ? new Money(await this.positions.available(manager, order.account_id, order.asset_id))
          : null;
      const accrued = order.settlement_date
        ? this.pricing.bondAccrued(asset.priced, order.settlement_date)
        : null;
      order.hold_amount = holdAmount(order, quote, free, accrued).toFixed();
      const placement = { order, asset, quote, free, phase: phaseAt(asset.row.market, now), now };
      if (changes(order, decide(order, quote, placement.phase))) {
        return this.acceptAndEvaluate(manager, placement);
      }
      return this.acceptResting(manager, batch, placement);
    });
  }

  /** The asset named by `symbol` (ticker, id, CUSIP or ISIN); 400 naming symbol when none is. */
  private async resolveAsset(
    principal: Principal,
    symbol: string,
    manager: EntityManager,
  ): Promise<ResolvedAsset> {
    const asset = await this.assets.resolveKeptInScope(principal, symbol, manager);
    if (!asset) {
      throw ServiceError.invalid(
        'symbol',
        `No such asset: '${symbol}'. Send a ticker, asset id, CUSIP or ISIN from /v1/assets/search.`,
      );
    }
    return asset;
  }

  /**
   * A resting order (the common case): the order, its hold, `order.accepted` and its session jobs
   * go out in one statement with the stored response. The statement's checks refuse in order: the
   * client_order_id taken (400), then buying power or the position (422).
   */
  private async acceptResting(
    manager: EntityManager,
    batch: WriteBatch,
    placement: Placement,
  ): Promise<OrderDto> {
    const { order, now } = placement;
    this.orders.insertInto(batch, order, () => {
      throw new ClientOrderIdTakenError(order.client_order_id);
    });
    await this.holdInto(manager, batch, placement);
    this.events.emitInto(batch, {
      tenantId: order.tenant_id,
      livemode: order.livemode,
      event: 'order.accepted',
      data: { ...envelopeOrder(order) },
    });
    this.sessionEvents.scheduleInto(batch, order, now);
    return envelopeOrder(order);
  }

  /**
   * An order that trades, is canceled or moves its water mark as soon as it is accepted: written at
   * once (order, hold, `order.accepted`) so the evaluation's fill finds the row and its hold, then
   * evaluated and read back as it ends up.
   */
  private async acceptAndEvaluate(manager: EntityManager, placement: Placement): Promise<OrderDto> {
    const { order, asset, quote, phase, now } = placement;
    // The row as stored (canonical numerics, jsonb metadata); none when the client_order_id is taken.
    const accepted = await this.orders.insertUnlessClientOrderIdTaken(manager, order);
    if (!accepted) {
      throw new ClientOrderIdTakenError(order.client_order_id);
    }
    await this.hold(manager, { ...placement, order: accepted });
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
      await this.sessionEvents.schedule(manager, current, now);
    }
    return envelopeOrder(current);
  }

  /**
   * Holds what `holdAmount` computed (stored on the order): cash in the ledger for buys
   * (422 SVC-422-002 without the buying power), units of the position for sells (422 SVC-422-003).
   */
  private async hold(manager: EntityManager, { order, free, quote, now }: Placement): Promise<void> {
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
    { order, free, quote, now }: Placement,
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

/** An order on its way in: the row, its asset and quote, what the position holds free, the session. */
interface Placement {
  order: OrderRow;
  asset: ResolvedAsset;
  quote: PricedQuote;
  /** Sells: the units of the position not reserved by other sells; null for buys. */
  free: Decimal | null;
  phase: Phase;
  now: Date;
}

/**
 * Bonds: the quantity is face value in steps of min_increment (422 SVC-422-005) and the order
 * settles on its settlement date (400 naming settlement_date); null for everything else.
 */
function bondTerms(asset: ResolvedAsset, body: PlaceOrderDto, now: Date): string | null {
  if (!isBondClass(asset.row.class)) {
    return null;
  }
  checkBondIncrement(body.quantity as string, asset.row.b_min_increment);
  return bondSettlementDate(
    { market: asset.row.market, settlementPeriod: asset.priced.bond?.settlementPeriod },
    body.settlement_date,
    now,
  );
}
