import { MARKETS } from 'src/modules/markets/calendar/market-definitions';
import type { PricedAsset } from 'src/modules/pricing/price-source';
import { standardNormal, STREAM, streamKey } from 'src/modules/pricing/simulated/deterministic-random';
import { SeededWalk, walkSpec } from 'src/modules/pricing/simulated/seeded-walk';
import { dayNumberOf, SessionTimeline } from 'src/modules/pricing/simulated/session-timeline';

/** The close as first written: every one of the 400 days, term by term (the definition). */
function closeTermByTerm(timeline: SessionTimeline, seed: string, asset: PricedAsset, day: number): number {
  const { phi, sigma } = walkSpec(asset);
  const key = streamKey(`${seed}:${asset.id}`);
  let power = 1;
  let value = 0;
  for (let j = 0; j < 400; j++) {
    if (timeline.isTradingDay(asset.market, day - j)) {
      value += power * sigma * standardNormal(key, STREAM.daily, day - j, 0);
    }
    power *= phi;
  }
  return value;
}

const CLASSES: PricedAsset['assetClass'][] = ['equity', 'etf', 'cryptocurrency', 'bill', 'note', 'bond'];

describe('SeededWalk.close', () => {
  it('is the same double as the term-by-term sum for many assets, markets, classes and days', () => {
    const timeline = new SessionTimeline();
    const walk = new SeededWalk(timeline, 'sandbox');
    const first = dayNumberOf('2024-12-20');
    let compared = 0;
    for (let i = 0; i < 60; i++) {
      const market = MARKETS[i % MARKETS.length].code;
      const asset: PricedAsset = {
        id: `asset-${i}`,
        assetClass: CLASSES[i % CLASSES.length],
        market,
        referencePrice: '10.00',
        bond: null,
      };
      for (let day = first; day < first + 400; day += 7 + (i % 5)) {
        expect(walk.close(asset, day)).toBe(closeTermByTerm(timeline, 'sandbox', asset, day));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(2500);
  });

  it('gives the same closes whatever order days and assets are asked in', () => {
    const asset: PricedAsset = {
      id: 'x',
      assetClass: 'equity',
      market: 'XNAS',
      referencePrice: '5',
      bond: null,
    };
    const days = [20500, 20100, 20499, 20300];
    const forward = new SeededWalk(new SessionTimeline(), 'seed-b');
    const backward = new SeededWalk(new SessionTimeline(), 'seed-b');
    const a = days.map((day) => forward.close(asset, day));
    const b = [...days].reverse().map((day) => backward.close(asset, day));
    expect(a).toEqual(b.reverse());
  });
});
