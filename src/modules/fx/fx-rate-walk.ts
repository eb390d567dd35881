import Decimal from 'decimal.js';
import { Money } from 'src/core/money/money';
import { FxCurrency, roundRate } from 'src/modules/fx/fx-math';
import { standardNormal, streamKey, StreamKey } from 'src/modules/pricing/simulated/deterministic-random';

/** Units of each currency per US dollar around which the simulated rates walk. */
export const REFERENCE_PER_USD: Readonly<Record<FxCurrency, string>> = {
  USD: '1',
  NGN: '1550',
  KES: '129.5',
};

const HOUR_MS = 3_600_000;
/** Hours of shocks summed into one rate: phi^HORIZON is negligible. */
const HORIZON = 240;
/** Hourly standard deviation of log(rate / reference) and its persistence. */
const SIGMA = 0.0015;
const PHI = 0.985;
const STREAM_FX = 11;

/**
 * Simulated mid rates: each currency's units per dollar follow a seeded AR(1) walk of its log
 * around the reference, in hourly steps of the clock (the rate holds within an hour), computed
 * directly from the hour (no stored state: every process gives the same rate for the same
 * instant). A pair's mid is the ratio of the two, so the three pairs stay consistent.
 */
export class FxRateWalk {
  private readonly keys = new Map<string, StreamKey>();

  constructor(private readonly seed: string) {}

  /** to per from at a clock instant, 8 decimals half-even. */
  mid(from: FxCurrency, to: FxCurrency, at: Date): Decimal {
    return roundRate(this.perUsd(to, at).div(this.perUsd(from, at)));
  }

  private perUsd(currency: FxCurrency, at: Date): Decimal {
    if (currency === 'USD') {
      return new Money(1);
    }
    const hour = Math.floor(at.getTime() / HOUR_MS);
    const key = this.key(currency);
    let log = 0;
    let weight = SIGMA;
    for (let lag = 0; lag < HORIZON; lag++) {
      const h = hour - lag;
      log += weight * standardNormal(key, STREAM_FX, Math.floor(h / 65_536), h % 65_536);
      weight *= PHI;
    }
    // The float is a simulated shock, not money: it becomes a decimal factor at 12 places.
    return new Money(REFERENCE_PER_USD[currency]).times(new Money(Math.exp(log).toFixed(12)));
  }

  private key(currency: string): StreamKey {
    let key = this.keys.get(currency);
    if (!key) {
      key = streamKey(`${this.seed}:fx:${currency}`);
      this.keys.set(currency, key);
    }
    return key;
  }
}
