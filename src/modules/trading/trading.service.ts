import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import { ServiceError } from 'src/core/errors/service-error';
import { ListEnvelope, toList } from 'src/core/http/envelope';
import type { CursorPageQuery } from 'src/core/http/pagination';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { AccountsService } from 'src/modules/accounts/accounts.service';
import { AssetsService } from 'src/modules/assets/assets.service';
import { PricingService } from 'src/modules/pricing/pricing.service';
import type { AccountOrdersQuery } from 'src/modules/trading/dto/order-queries';
import type { AccountOrderDto, ExecutionDto, OrderDto, PositionDto } from 'src/modules/trading/dto/order.dto';
import { OrderFills } from 'src/modules/trading/engine/order-fills';
import { OPEN_STATUSES, OrderRow, PositionRow } from 'src/modules/trading/order-types';
import { accountOrder, envelopeOrder, executionView, positionView } from 'src/modules/trading/order-views';
import { OrdersRepository, Scope } from 'src/modules/trading/orders.repository';
import { PositionsRepository } from 'src/modules/trading/positions.repository';

/** Order and position reads in both views, and cancel. */
@Injectable()
export class TradingService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: IdempotentTransaction,
    private readonly accounts: AccountsService,
    private readonly assets: AssetsService,
    private readonly pricing: PricingService,
    private readonly clock: ClockService,
    private readonly orders: OrdersRepository,
    private readonly positions: PositionsRepository,
    private readonly fills: OrderFills,
  ) {}

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
    return toList(url, (await this.orders.executionsOf(order.id)).map(executionView), false);
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
        throw ServiceError.conflict(
          `Order ${order.id} is ${order.status}; only accepted or partially_filled orders can be canceled.`,
        );
      }
      const now = await this.clock.now(principal, manager);
      return envelopeOrder(await this.fills.end(manager, order, 'canceled', 'canceled on request', now));
    });
  }

  async listPositions(principal: Principal, accountId: string): Promise<PositionDto[]> {
    const account = await this.accounts.findAccountForPrincipal(principal, accountId);
    const rows = await this.positions.listOf(principal, [account.id]);
    const at = await this.clock.now(principal);
    const prices = await this.prices(principal, rows, at, 'last');
    return rows.map((p) => positionView(p, prices.get(p.asset_id) as Decimal));
  }

  async getPosition(principal: Principal, accountId: string, symbol: string): Promise<PositionDto> {
    const account = await this.accounts.findAccountForPrincipal(principal, accountId);
    const row = await this.positions.findBySymbol(principal, account.id, symbol);
    if (!row) {
      throw ServiceError.notFound('position', symbol);
    }
    const prices = await this.prices(principal, [row], await this.clock.now(principal), 'last');
    return positionView(row, prices.get(row.asset_id) as Decimal);
  }

  /**
   * Market value of the positions of accounts per account id: at the last price, or at the last
   * close (`last_equity`: the previous close while a session is open, else the last price).
   */
  async positionValues(
    scope: Scope,
    accountIds: string[],
    manager?: EntityManager,
  ): Promise<Map<string, { currency: string; value: Decimal }[]>> {
    const rows = await this.positions.listOf(scope, accountIds, manager ?? this.dataSource.manager);
    const result = new Map<string, { currency: string; value: Decimal }[]>();
    if (rows.length === 0) {
      return result;
    }
    const prices = await this.prices(scope, rows, await this.clock.now(scope, manager), 'close', manager);
    for (const p of rows) {
      const list = result.get(p.account_id) ?? [];
      const value = new Decimal(p.quantity).times(prices.get(p.asset_id) as Decimal);
      list.push({
        currency: p.currency,
        value:
          p.asset_class === 'bond' || p.asset_class === 'bill' || p.asset_class === 'note'
            ? value.div(100)
            : value,
      });
      result.set(p.account_id, list);
    }
    return result;
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

  private async prices(
    scope: Scope,
    rows: PositionRow[],
    at: Date,
    basis: 'last' | 'close',
    manager?: EntityManager,
  ): Promise<Map<string, Decimal>> {
    const prices = new Map<string, Decimal>();
    for (const assetId of new Set(rows.map((r) => r.asset_id))) {
      const asset = await this.assets.resolveInScope(scope, assetId, manager);
      if (!asset) {
        prices.set(assetId, new Decimal(0));
        continue;
      }
      const quote = await this.pricing.quote(asset.priced, asset.override, at);
      prices.set(
        assetId,
        basis === 'close' && quote.session === 'regular' ? quote.previousClose : quote.last,
      );
    }
    return prices;
  }

  private async require(scope: Scope, accountId: string, orderId: string): Promise<OrderRow> {
    const order = await this.orders.find(scope, accountId, orderId);
    if (!order) {
      throw ServiceError.notFound('order', orderId);
    }
    return order;
  }
}
