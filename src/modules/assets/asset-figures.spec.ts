import { Money } from 'src/core/money/money';
import { AssetFigures, Figures } from 'src/modules/assets/asset-figures';
import type { AssetQueryRow } from 'src/modules/assets/asset-queries';
import type { PricedAsset } from 'src/modules/pricing/price-source';
import type { PricedQuote, PricingService } from 'src/modules/pricing/pricing.service';

describe('AssetFigures', () => {
  beforeEach(() => jest.useFakeTimers({ now: T0 }));
  afterEach(() => jest.useRealTimers());

  it('keeps figures per asset state and minute', async () => {
    const { asked, pricing } = fakePricing();
    const figures = new AssetFigures(pricing);
    const at = new Date(T0);
    const first = await figures.of(row(), at);
    expect(figures.of(row(), at)).toBe(first); // kept: answered without a promise
    await figures.of(row({ reference_price: '101' }), at);
    await figures.of(row({ override_price: '5', override_set_at: new Date(0) }), at);
    const bond = { b_cusip: '91282CLW9', b_maturity_date: '2030-01-01', b_bond_status: 'outstanding' };
    await figures.of(row(bond), at);
    await figures.of(row({ ...bond, b_maturity_date: '2031-01-01' }), at);
    await figures.of(row({ ...bond, b_bond_status: 'matured' }), at);
    expect(figures.of(row(bond), at)).not.toBeInstanceOf(Promise);
    expect(asked).toEqual([
      'asset-1@100@0',
      'asset-1@101@0',
      'asset-1@100@0', // with an override
      'asset-1@100@0', // a bond, then with other terms, then another status
      'asset-1@100@0',
      'asset-1@100@0',
    ]);
    figures.onModuleDestroy();
  });

  it('computes the next minute of the rows shown before the minute turns', async () => {
    const { asked, pricing } = fakePricing();
    const figures = new AssetFigures(pricing);
    await figures.of(row(), new Date());
    expect(asked).toEqual(['asset-1@100@0']);
    // 20 s before the turn the next minute is prepared, a slice at a time.
    await jest.advanceTimersByTimeAsync(35_000);
    expect(asked).toEqual(['asset-1@100@0', 'asset-1@100@1']);
    jest.setSystemTime(T0 + MINUTE);
    const next = figures.of(row(), new Date()) as Figures;
    expect(next.price.price).toBe(Math.floor((T0 + MINUTE) / MINUTE) % 1000);
    expect(asked).toHaveLength(2);
    figures.onModuleDestroy();
  });

  it('does not prepare ahead for a clock standing elsewhere', async () => {
    const { asked, pricing } = fakePricing();
    const figures = new AssetFigures(pricing);
    await figures.of(row(), new Date(T0 - 10 * MINUTE));
    await jest.advanceTimersByTimeAsync(MINUTE);
    expect(asked).toEqual(['asset-1@100@-10']);
    figures.onModuleDestroy();
  });
});

const MINUTE = 60_000;
const T0 = Date.parse('2026-11-24T15:00:10Z');

const row = (over: Partial<AssetQueryRow> = {}) =>
  ({
    id: 'asset-1',
    class: 'equity',
    market: 'XNAS',
    reference_price: '100',
    b_cusip: null,
    override_price: null,
    override_set_at: null,
    ...over,
  }) as AssetQueryRow;

/** A price source whose last price is the minute number, counting what it was asked. */
function fakePricing() {
  const asked: string[] = [];
  const pricing = {
    quote: (asset: PricedAsset, _override: unknown, at: Date): Promise<PricedQuote> => {
      const minute = Math.floor(at.getTime() / MINUTE);
      asked.push(`${asset.id}@${asset.referencePrice}@${minute - Math.floor(T0 / MINUTE)}`);
      const last = new Money(minute % 1000);
      return Promise.resolve({
        last,
        bid: last,
        ask: last,
        bidSize: new Money(1),
        askSize: new Money(1),
        lastSize: new Money(1),
        previousClose: new Money(1),
        previousCloseDate: '2026-11-23',
        sessionDate: '2026-11-24',
        timestamp: new Date(minute * MINUTE),
        session: 'regular',
        source: 'simulated',
      });
    },
    bondValue: () => null,
  };
  return { asked, pricing: pricing as unknown as PricingService };
}
