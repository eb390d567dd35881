import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ClockService } from 'src/core/clock/clock.service';
import { assertUnreachable } from 'src/core/errors/assert-unreachable';
import { AppConfig } from 'src/core/config/app-config.service';
import { QueueRuntime } from 'src/core/queue/queue-runtime';
import { AssetsService, ResolvedAsset } from 'src/modules/assets/assets.service';
import { InsufficientFundsError } from 'src/modules/ledger/ledger-errors';
import { minorUnitText } from 'src/modules/trading/order-rules';
import { PriceTicks } from 'src/modules/pricing/price-ticks';
import { PricedQuote, PricingService } from 'src/modules/pricing/pricing.service';
import { changes, Decision, decide, Phase } from 'src/modules/trading/engine/fill-rules';
import { phaseAt } from 'src/modules/trading/engine/sessions';
import { OrderFills } from 'src/modules/trading/engine/order-fills';
import type { OrderRow } from 'src/modules/trading/order-types';
import { OrderMark, OrdersRepository, Scope } from 'src/modules/trading/orders.repository';
import { DustFillError } from 'src/modules/trading/trading-errors';

/** Day orders placed before a session's close expire at that close. */
function expires(order: OrderRow, event: 'open' | 'close' | undefined, at: Date): boolean {
  return event === 'close' && order.time_in_force === 'day' && order.created_at.getTime() < at.getTime();
}

/**
 * The sandbox execution engine. An order is evaluated when accepted, on every price tick of its
 * asset (the price helper; a periodic sweep at the moving simulated price) and at session events on
 * the tenant's clock (SessionEvents: the open, opg orders and everything that waited; the close, cls
 * orders, then day orders are canceled). Evaluating an asset is one transaction that locks the
 * orders it changes with FOR UPDATE SKIP LOCKED, so two engines never change the same order at once,
 * and a crash mid-tick rolls back every fill of that tick. Each fill runs in a savepoint: one refused
 * fill (cash gone) rejects that order only.
 */
@Injectable()
export class OrderEngine implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(OrderEngine.name);
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
    private readonly fills: OrderFills,
    private readonly assets: AssetsService,
    private readonly pricing: PricingService,
    private readonly clock: ClockService,
    private readonly ticks: PriceTicks,
    private readonly runtime: QueueRuntime,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.ticks.register(async (scope, assetIds) => {
      await this.tick(scope, assetIds);
    });
    const interval = this.config.get('ENGINE_SWEEP_INTERVAL_MS');
    if (this.runtime.runsConsumers && interval > 0) {
      this.sweepTimer = setInterval(() => void this.sweep(), interval);
      this.sweepTimer.unref();
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweepTimer);
  }

  /**
   * A price tick of some assets at the clock's now. Per asset: its quote, then an unlocked read of the
   * open orders the quote may change (none in a closed session), decided in memory; only when some do
   * change is a transaction opened, which locks them FOR UPDATE SKIP LOCKED, re-reads and decides them
   * again. A typical tick is two reads and no transaction.
   */
  async tick(scope: Scope, assetIds: string[]): Promise<number> {
    let changed = 0;
    for (const assetId of assetIds) {
      changed += await this.tickAsset(scope, assetId);
    }
    return changed;
  }

  private async tickAsset(scope: Scope, assetId: string): Promise<number> {
    const at = await this.clock.now(scope);
    const asset = await this.assets.resolveInScope(scope, assetId);
    if (!asset) {
      return 0;
    }
    const phase = phaseAt(asset.row.market, at);
    if (phase !== 'regular' && phase !== 'extended') {
      return 0; // nothing is eligible while the market is closed (see `decide`)
    }
    const quote = await this.pricing.quote(asset.priced, asset.override, at);
    const open = await this.orders.openOfAsset(this.dataSource.manager, scope, assetId, {
      phase,
      last: quote.last.toFixed(),
      bid: quote.bid.toFixed(),
      ask: quote.ask.toFixed(),
    });
    const candidates = open.filter((order) => changes(order, decide(order, quote, phase)));
    if (candidates.length === 0) {
      return 0;
    }
    return this.dataSource.transaction((manager) =>
      this.evaluateLocked(manager, scope, candidates, asset, quote, phase, at),
    );
  }

  /**
   * Evaluates the open orders of an asset at a session event (in the event job's transaction);
   * returns how many changed. The orders are read without a lock and decided in memory; only those
   * the event changes (auction fills and cancels, day orders at the close) are then locked.
   */
  async evaluateAsset(
    manager: EntityManager,
    scope: Scope,
    assetId: string,
    at: Date,
    event: 'open' | 'close',
  ): Promise<number> {
    const open = await this.orders.openOfAsset(manager, scope, assetId);
    if (open.length === 0) {
      return 0;
    }
    const asset = await this.assets.resolveInScope(scope, assetId, manager);
    if (!asset) {
      return 0;
    }
    const quote = await this.pricing.quote(asset.priced, asset.override, at);
    const candidates = open.filter(
      (order) => expires(order, event, at) || changes(order, decide(order, quote, event)),
    );
    return this.evaluateLocked(manager, scope, candidates, asset, quote, event, at);
  }

  /**
   * Locks the candidates that are still open (skipping rows another engine holds: it is evaluating
   * them), and evaluates each again as locked; day orders expire at the close.
   */
  private async evaluateLocked(
    manager: EntityManager,
    scope: Scope,
    candidates: OrderRow[],
    asset: ResolvedAsset,
    quote: PricedQuote,
    phase: Phase,
    at: Date,
  ): Promise<number> {
    if (candidates.length === 0) {
      return 0;
    }
    const event = phase === 'open' || phase === 'close' ? phase : undefined;
    const locked = await this.orders.lockOpen(
      manager,
      candidates.map((o) => o.id),
    );
    let changed = 0;
    // Moved water marks and triggered stops (no fill yet) are written together, in one statement.
    const marks: OrderMark[] = [];
    for (const order of locked) {
      const decision = decide(order, quote, phase);
      if (decision.kind !== 'none') {
        changed += (await this.evaluate(manager, order, asset, quote, phase, at)) ? 1 : 0;
      } else if (changes(order, decision)) {
        marks.push({ id: order.id, waterMark: decision.waterMark?.toFixed(), triggered: decision.triggered });
        changed++;
      }
    }
    await this.orders.mark(manager, marks);
    for (const order of locked.filter((o) => expires(o, event, at))) {
      const current = await this.orders.find(scope, order.account_id, order.id, manager);
      if (current && (current.status === 'accepted' || current.status === 'partially_filled')) {
        await this.fills.end(
          manager,
          current,
          'canceled',
          'day order expired at the close of its session',
          at,
        );
        changed++;
      }
    }
    return changed;
  }

  /** One order against one quote (the caller holds the order's row lock). True when it changed. */
  async evaluate(
    manager: EntityManager,
    order: OrderRow,
    asset: ResolvedAsset,
    quote: PricedQuote,
    phase: Phase,
    at: Date,
  ): Promise<boolean> {
    const decision = decide(order, quote, phase);
    switch (decision.kind) {
      case 'none':
        if (changes(order, decision)) {
          await this.orders.update(manager, order.id, {
            waterMark: decision.waterMark?.toFixed(),
            triggered: decision.triggered,
            updatedAt: order.updated_at,
          });
          return true;
        }
        return false;
      case 'cancel':
        await this.fills.end(manager, order, 'canceled', decision.reason, at);
        return true;
      case 'fill':
        await this.fillOrEnd(manager, order, decision, asset, quote.source, at);
        return true;
      default:
        return assertUnreachable(decision, 'decision');
    }
  }

  /**
   * A fill in a savepoint. One the cash no longer covers (the price rose past the hold and what is
   * still available) or worth less than the currency's smallest unit ends the order instead: rejected
   * when nothing filled yet, else canceled.
   */
  private async fillOrEnd(
    manager: EntityManager,
    order: OrderRow,
    decision: Extract<Decision, { kind: 'fill' }>,
    asset: ResolvedAsset,
    source: string,
    at: Date,
  ): Promise<void> {
    try {
      await manager.transaction((savepoint) =>
        this.fills.fill(
          savepoint,
          {
            ...order,
            ...(decision.waterMark ? { water_mark: decision.waterMark.toFixed() } : {}),
            ...(decision.triggered !== undefined ? { triggered: decision.triggered } : {}),
          },
          asset,
          { quantity: decision.quantity, price: decision.price, source, cancelRest: decision.cancelRest },
          at,
        ),
      );
    } catch (err) {
      if (!(err instanceof InsufficientFundsError || err instanceof DustFillError)) {
        throw err;
      }
      const reason =
        err instanceof DustFillError
          ? `worth less than ${minorUnitText(err.currency)} at execution`
          : 'insufficient buying power at execution';
      await this.fills.end(manager, order, order.status === 'accepted' ? 'rejected' : 'canceled', reason, at);
    }
  }

  /** Periodic sweep: every asset with open orders, at its current (moving) price. */
  private async sweep(): Promise<void> {
    if (this.sweeping) {
      return;
    }
    this.sweeping = true;
    try {
      for (const row of await this.orders.openAssets()) {
        await this.tick({ tenantId: row.tenant_id, livemode: row.livemode }, [row.asset_id]);
      }
    } catch (err) {
      this.logger.error({ msg: 'engine sweep failed', err: String(err) });
    } finally {
      this.sweeping = false;
    }
  }
}
