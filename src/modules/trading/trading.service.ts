import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import { ServiceError } from 'src/core/errors/service-error';
import { ListEnvelope, toList } from 'src/core/http/envelope';
import type { CursorPageQuery } from 'src/core/http/pagination';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { AccountsService } from 'src/modules/accounts/accounts.service';
import type { AccountOrdersQuery } from 'src/modules/trading/dto/order-queries';
import type { AccountOrderDto, ExecutionDto, OrderDto, PositionDto } from 'src/modules/trading/dto/order.dto';
import { OrderFills } from 'src/modules/trading/engine/order-fills';
import { ExecutionsRepository } from 'src/modules/trading/executions.repository';
import { OPEN_STATUSES, OrderRow } from 'src/modules/trading/order-types';
import { accountOrder, envelopeOrder, executionView, positionView } from 'src/modules/trading/order-views';
import { OrdersRepository, Scope } from 'src/modules/trading/orders.repository';
import { PositionValuation } from 'src/modules/trading/position-valuation.service';
import { PositionsRepository } from 'src/modules/trading/positions.repository';
import { InsufficientPositionError, OrderNotOpenError } from 'src/modules/trading/trading-errors';

/** Order and position reads in both views, and cancel. */
@Injectable()
export class TradingService {
  constructor(
    private readonly transactions: IdempotentTransaction,
    private readonly accounts: AccountsService,
    private readonly clock: ClockService,
    private readonly orders: OrdersRepository,
    private readonly executionRows: ExecutionsRepository,
    private readonly positions: PositionsRepository,
    private readonly fills: OrderFills,
    private readonly valuation: PositionValuation,
  ) {}

  /**
   * For journals (JNLS), in the caller's transaction: moves units and their cost basis between two
   * accounts' positions; 422 SVC-422-003 naming `quantity` when the source holds too few unreserved units.
   */
  async journalUnits(
    manager: EntityManager,
    scope: Scope,
    move: { fromAccountId: string; toAccountId: string; symbol: string; quantity: string; at: Date },
  ): Promise<{ assetId: string; symbol: string; currency: string; costBasis: string }> {
    const moved = await this.positions.moveUnits(manager, scope, move);
    if (!moved) {
      throw new InsufficientPositionError(
        `The source account holds fewer than ${move.quantity} unreserved units of ${move.symbol}.`,
        'quantity',
      );
    }
    return moved;
  }

  async listAccountOrders(
    principal: Principal,
    accountId: string,
    query: AccountOrdersQuery,
  ): Promise<AccountOrderDto[]> {
    const account = await this.accounts.findAccountForPrincipal(principal, accountId);
    const rows = await this.orders.listForAccount(principal, account.id, {
      status: query.status,
      symbol: query.symbol,
      side: query.side,
      updatedSince: query.updated_since ? new Date(query.updated_since) : undefined,
      limit: query.limit ?? 50,
      offset: query.offset ?? 0,
    });
    return rows.map(accountOrder);
  }

  async getAccountOrder(principal: Principal, accountId: string, orderId: string): Promise<AccountOrderDto> {
    const account = await this.accounts.findAccountForPrincipal(principal, accountId);
    return accountOrder(await this.require(principal, account.id, orderId));
  }

  async listInvestorOrders(
    principal: Principal,
    investorId: string,
    query: CursorPageQuery,
    url: string,
  ): Promise<ListEnvelope<OrderDto>> {
    const account = await this.accounts.findInvestorAccount(principal, investorId);
    if (query.starting_after && query.ending_before) {
      throw ServiceError.invalid('ending_before', 'Send starting_after or ending_before, not both.');
    }
    const cursorId = query.starting_after ?? query.ending_before;
    const cursor = cursorId ? await this.orders.find(principal, account.id, cursorId) : null;
    if (cursorId && !cursor) {
      throw ServiceError.invalid(
        query.starting_after ? 'starting_after' : 'ending_before',
        `No such order: '${cursorId}'.`,
      );
    }
    const limit = query.limit ?? 50;
    const rows = await this.orders.pageForAccount(principal, account.id, limit, {
      after: query.starting_after ? (cursor as OrderRow) : undefined,
      before: query.ending_before ? (cursor as OrderRow) : undefined,
    });
    const hasMore = rows.length > limit;
    const page = query.ending_before ? rows.slice(rows.length > limit ? 1 : 0) : rows.slice(0, limit);
    return toList(url, page.map(envelopeOrder), hasMore);
  }

  async getInvestorOrder(principal: Principal, investorId: string, orderId: string): Promise<OrderDto> {
    const account = await this.accounts.findInvestorAccount(principal, investorId);
    return envelopeOrder(await this.require(principal, account.id, orderId));
  }

  async executions(
    principal: Principal,
    investorId: string,
    orderId: string,
    url: string,
  ): Promise<ListEnvelope<ExecutionDto>> {
    const account = await this.accounts.findInvestorAccount(principal, investorId);
    const order = await this.require(principal, account.id, orderId);
    return toList(
      url,
      (await this.executionRows.ofOrder(order.id)).map((e) => executionView(e, order.livemode)),
      false,
    );
  }

  /** Cancels an open order (what is unfilled): its hold is released; 409 SVC-409-001 once it has ended. */
  cancel(
    principal: Principal,
    investorId: string,
    orderId: string,
    idem: IdempotentRequest | undefined,
  ): Promise<OrderDto> {
    return this.transactions.run(idem, async (manager) => {
      const account = await this.accounts.findInvestorAccount(principal, investorId, manager);
      const order = await this.orders.find(principal, account.id, orderId, manager, true);
      if (!order) {
        throw ServiceError.notFound('order', orderId);
      }
      if (!OPEN_STATUSES.includes(order.status)) {
        throw new OrderNotOpenError(order.id, order.status);
      }
      const now = await this.clock.now(principal, manager);
      return envelopeOrder(await this.fills.end(manager, order, 'canceled', 'canceled on request', now));
    });
  }

  async listPositions(principal: Principal, accountId: string): Promise<PositionDto[]> {
    const account = await this.accounts.findAccountForPrincipal(principal, accountId);
    const rows = await this.positions.listOf(principal, [account.id]);
    const at = await this.clock.now(principal);
    const prices = await this.valuation.prices(principal, rows, at, 'last');
    return rows.map((p) => positionView(p, prices.get(p.asset_id) as Decimal));
  }

  async getPosition(principal: Principal, accountId: string, symbol: string): Promise<PositionDto> {
    const account = await this.accounts.findAccountForPrincipal(principal, accountId);
    const row = await this.positions.findBySymbol(principal, account.id, symbol);
    if (!row) {
      throw ServiceError.notFound('position', symbol);
    }
    const prices = await this.valuation.prices(principal, [row], await this.clock.now(principal), 'last');
    return positionView(row, prices.get(row.asset_id) as Decimal);
  }

  /** Cancels every open order of an account (its suspension): holds released, `order.canceled` sent. */
  async cancelOpenOrders(
    scope: Scope,
    accountId: string,
    reason: string,
    manager: EntityManager,
  ): Promise<void> {
    const open = await this.orders.openOfAccount(manager, scope, accountId);
    const now = await this.clock.now(scope, manager);
    for (const order of open) {
      await this.fills.end(manager, order, 'canceled', reason, now);
    }
  }

  /** What an account still holds in trading, in words: its open orders and positions (closing). */
  async holdings(scope: Scope, accountId: string, manager: EntityManager): Promise<string[]> {
    const open = await this.orders.countOpenOfAccount(manager, scope, accountId);
    const held = await this.positions.listOf(scope, [accountId], manager);
    return [
      ...(open > 0 ? [`${open} open order${open === 1 ? '' : 's'}`] : []),
      ...held.map((p) => `${p.quantity} ${p.symbol}`),
    ];
  }

  private async require(scope: Scope, accountId: string, orderId: string): Promise<OrderRow> {
    const order = await this.orders.find(scope, accountId, orderId);
    if (!order) {
      throw ServiceError.notFound('order', orderId);
    }
    return order;
  }
}
