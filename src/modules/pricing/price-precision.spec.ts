import { Money } from 'src/core/money/money';
import { roundChange, roundPrice, spreadAround } from 'src/modules/pricing/price-precision';
import type { PricedAsset } from 'src/modules/pricing/price-source';

const asset = (assetClass: PricedAsset['assetClass'], market = 'XNAS'): PricedAsset => ({
  id: 'x',
  assetClass,
  market,
  referencePrice: '1',
  bond: null,
});

describe('price precision and spreads', () => {
  it('rounds equities to cents from 1 up and to 0.0001 below, crypto to 8 significant digits, bonds to 6 decimals', () => {
    expect(roundPrice(asset('equity'), new Money('229.8765')).toString()).toBe('229.88');
    expect(roundPrice(asset('equity'), new Money('0.123456')).toString()).toBe('0.1235');
    expect(roundPrice(asset('cryptocurrency'), new Money('91842.50123')).toString()).toBe('91842.501');
    expect(roundPrice(asset('cryptocurrency'), new Money('0.00000498123456')).toString()).toBe(
      '0.0000049812346',
    );
    expect(roundPrice(asset('note'), new Money('99.12345678')).toString()).toBe('99.123457');
    expect(
      roundChange(asset('cryptocurrency'), new Money('12.3456789'), new Money('91842.5')).toString(),
    ).toBe('12.346');
  });

  it('puts bid below and ask above the last price by the class spread, at least one tick', () => {
    const equity = spreadAround(asset('equity'), new Money('200.00'));
    expect([equity.bid.toString(), equity.ask.toString()]).toEqual(['199.95', '200.05']);
    const cheap = spreadAround(asset('equity'), new Money('5.00'));
    expect([cheap.bid.toString(), cheap.ask.toString()]).toEqual(['4.99', '5.01']);
    const lagos = spreadAround(asset('equity', 'XNSA'), new Money('548.00'));
    expect([lagos.bid.toString(), lagos.ask.toString()]).toEqual(['545.26', '550.74']);
    const bill = spreadAround(asset('bill', 'OTC'), new Money('99.5'));
    expect(bill.bid.lt(99.5) && bill.ask.gt(99.5)).toBe(true);
  });
});
