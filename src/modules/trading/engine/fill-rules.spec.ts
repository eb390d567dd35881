import Decimal from 'decimal.js';
import { decide, trailingStop } from 'src/modules/trading/engine/fill-rules';
import type { QuoteView } from 'src/modules/trading/order-types';
import { orderRow } from 'test/support/order-row';

const order = orderRow;

const quote = (last: string, size = '500'): QuoteView => ({
  last: new Decimal(last),
  bid: new Decimal(last).minus('0.01'),
  ask: new Decimal(last).plus('0.01'),
  bidSize: new Decimal(size),
  askSize: new Decimal(size),
  source: 'override',
});

describe('fill rules (pure)', () => {
  it('market orders fill at the ask (buy) or bid (sell), at most the displayed size', () => {
    expect(decide(order({}), quote('10'), 'regular')).toMatchObject({
      kind: 'fill',
      price: new Decimal('10.01'),
    });
    const big = decide(order({ side: 'sell', quantity: '800' }), quote('10'), 'regular');
    expect(big).toMatchObject({ kind: 'fill', quantity: new Decimal(500), price: new Decimal('9.99') });
  });

  it('limits fill only when marketable', () => {
    expect(decide(order({ type: 'limit', limit_price: '10' }), quote('10'), 'regular').kind).toBe('none');
    expect(decide(order({ type: 'limit', limit_price: '10.01' }), quote('10'), 'regular').kind).toBe('fill');
    expect(
      decide(order({ type: 'limit', side: 'sell', limit_price: '9.99' }), quote('10'), 'regular').kind,
    ).toBe('fill');
  });

  it('stops trigger on the last price and stay triggered', () => {
    const stop = order({ type: 'stop', side: 'sell', stop_price: '9' });
    expect(decide(stop, quote('9.5'), 'regular').kind).toBe('none');
    expect(decide(stop, quote('9'), 'regular')).toMatchObject({ kind: 'fill', triggered: true });
    const stopLimit = order({ type: 'stop_limit', stop_price: '11', limit_price: '11' });
    expect(decide(stopLimit, quote('11.5'), 'regular')).toEqual({ kind: 'none', triggered: true });
  });

  it('trailing stops track the water mark and trigger off it', () => {
    const trailing = order({ type: 'trailing_stop', side: 'sell', trail_percent: '10', water_mark: '100' });
    const higher = decide(trailing, quote('120'), 'regular');
    expect(higher).toMatchObject({ kind: 'none', waterMark: new Decimal(120) });
    expect(trailingStop(trailing, new Decimal(120)).toFixed()).toBe('108');
    expect(decide({ ...trailing, water_mark: '120' }, quote('108'), 'regular').kind).toBe('fill');
    expect(decide({ ...trailing, water_mark: '120' }, quote('108'), 'extended').kind).toBe('none');
    const buy = order({ type: 'trailing_stop', trail_price: '2', water_mark: '50' });
    expect(decide(buy, quote('52'), 'regular').kind).toBe('fill');
  });

  it('ioc cancels the rest, fok fills all or nothing', () => {
    expect(decide(order({ time_in_force: 'ioc', quantity: '800' }), quote('10'), 'regular')).toMatchObject({
      kind: 'fill',
      quantity: new Decimal(500),
      cancelRest: 'ioc: 300 not fillable at the quote',
    });
    expect(decide(order({ time_in_force: 'fok', quantity: '800' }), quote('10'), 'regular').kind).toBe(
      'cancel',
    );
    expect(decide(order({ time_in_force: 'fok', quantity: '500' }), quote('10'), 'regular').kind).toBe(
      'fill',
    );
  });

  it('sessions: extended hours only for extended orders, opg at the open, cls at the close, nothing when closed', () => {
    expect(decide(order({}), quote('10'), 'closed').kind).toBe('none');
    expect(decide(order({}), quote('10'), 'extended').kind).toBe('none');
    expect(
      decide(order({ type: 'limit', limit_price: '11', extended_hours: true }), quote('10'), 'extended').kind,
    ).toBe('fill');
    expect(decide(order({ time_in_force: 'opg' }), quote('10'), 'regular').kind).toBe('none');
    const auction = decide(order({ time_in_force: 'opg', quantity: '5000' }), quote('10'), 'open');
    expect(auction.kind === 'fill' && auction.quantity.toFixed()).toBe('5000');
    expect(
      decide(order({ time_in_force: 'cls', type: 'limit', limit_price: '1' }), quote('10'), 'close').kind,
    ).toBe('cancel');
    expect(decide(order({ time_in_force: 'day' }), quote('10'), 'close').kind).toBe('none');
  });

  it('notional orders buy whole units of 1e-8 at the quote', () => {
    const fill = decide(order({ quantity: null, notional: '100' }), quote('3'), 'regular');
    expect(fill.kind === 'fill' && fill.quantity.toFixed()).toBe('33.22259136');
  });
});
