import { Injectable, Logger } from '@nestjs/common';

export type PriceTickListener = (
  scope: { tenantId: string; livemode: boolean },
  assetIds: string[],
) => Promise<void>;

/**
 * Where a price change is announced (the sandbox price helper): the trading engine registers a
 * listener at start and evaluates the orders of those assets before the helper answers.
 */
@Injectable()
export class PriceTicks {
  private readonly logger = new Logger(PriceTicks.name);
  private readonly listeners: PriceTickListener[] = [];

  register(listener: PriceTickListener): void {
    this.listeners.push(listener);
  }

  async notify(scope: { tenantId: string; livemode: boolean }, assetIds: string[]): Promise<void> {
    for (const listener of this.listeners) {
      try {
        await listener(scope, assetIds);
      } catch (err) {
        // The price is set either way; the engine's periodic sweep evaluates the orders again.
        this.logger.error({ msg: 'price tick listener failed', tenantId: scope.tenantId, err: String(err) });
      }
    }
  }
}
