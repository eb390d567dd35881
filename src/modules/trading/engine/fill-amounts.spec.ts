import Decimal from 'decimal.js';
import fc from 'fast-check';
import { executionOf, fillAmounts, fillJournal, planFill } from 'src/modules/trading/engine/fill-amounts';
import type { OrderRow } from 'src/modules/trading/order-types';
import { DustFillError } from 'src/modules/trading/trading-errors';
import { orderRow } from 'test/support/order-row';

describe('fillAmounts (pure)', () => {
  it('a buy pays quantity × price, rounded half up to the minor unit, plus its commission', () => {
    expect(amountsText(orderRow({}), '10', '187.235')).toEqual({
      quantity: '10',
      gross: '1872.35',
      cash: '1872.35',
      commission: '0',
      net: '1872.35',
    });
    // 3 × 0.335 = 1.005: half up gives 1.01 (half even would give 1.00).
    expect(amountsText(orderRow({}), '3', '0.335').cash).toBe('1.01');
    // Basis points on the principal, rounded half up: 1872.35 × 25 / 10,000 = 4.680875.
    const bps = orderRow({ commission_type: 'bps', commission_rate: '25' });
    expect(amountsText(bps, '10', '187.235')).toMatchObject({ commission: '4.68', net: '1877.03' });
    // Zero-decimal currencies round to whole units.
    expect(amountsText(orderRow({ currency: 'JPY' }), '7', '150.5').cash).toBe('1054');
  });

  it('charges a flat commission on the first fill only, and per unit on every fill', () => {
    const flat = orderRow({ commission_type: 'notional', commission_rate: '1.5' });
    expect(amountsText(flat, '1', '10').commission).toBe('1.5');
    expect(amountsText({ ...flat, fill_count: 1 }, '1', '10').commission).toBe('0');
    const perUnit = orderRow({ commission_type: 'qty', commission_rate: '0.005', fill_count: 2 });
    expect(amountsText(perUnit, '333', '10').commission).toBe('1.67'); // 1.665 half up
  });

  it('a sell receives its cash less commission, never sells more than it reserved, and never pays to sell', () => {
    const sell = orderRow({ side: 'sell', hold_amount: '100', hold_used: '60', commission_type: 'qty' });
    expect(amountsText({ ...sell, commission_rate: '0.01' }, '50', '2')).toEqual({
      quantity: '40',
      gross: '80',
      cash: '80',
      commission: '0.4',
      net: '79.6',
    });
    // A commission that would take all the cash is waived.
    expect(amountsText({ ...sell, commission_rate: '5' }, '1', '2')).toMatchObject({
      commission: '0',
      net: '2',
    });
  });

  it('prices bonds per 100 of face and adds accrued interest before rounding once', () => {
    const bond = orderRow({ asset_class: 'bond', quantity: '1000', settlement_date: '2025-11-21' });
    // 1000 × 99.5 / 100 = 995; accrued 1.2345 per 100 → 12.345; cash 1007.345 → 1007.35.
    expect(amountsText(bond, '1000', '99.5', '1.2345')).toEqual({
      quantity: '1000',
      gross: '995',
      cash: '1007.35',
      commission: '0',
      net: '1007.35',
    });
  });

  it('refuses a fill worth less than one minor unit (DustFillError, with its currency)', () => {
    const dust = () => fillAmounts(orderRow({}), fill('0.00000001', '0.1'), null);
    expect(dust).toThrow(DustFillError);
    expect(dust).toThrow('The fill is worth less than one minor unit of USD.');
  });

  it('property: a buy debits cash + commission, the cash being quantity × price rounded half up', () => {
    fc.assert(
      fc.property(
        decimal(0.00000001, 100000, 8),
        decimal(0.0001, 10000, 4),
        decimal(0, 100, 2),
        (q, p, bps) => {
          const order = orderRow({ commission_type: 'bps', commission_rate: bps.toFixed() });
          const cash = q.times(p).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
          fc.pre(cash.gt(0));
          const a = fillAmounts(order, { quantity: q, price: p }, null);
          const commission = cash.times(bps).div(10_000).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
          expect(a.cash.toFixed()).toBe(cash.toFixed());
          expect(a.commission.toFixed()).toBe(commission.toFixed());
          expect(a.net.toFixed()).toBe(cash.plus(commission).toFixed());
          expect(a.net.decimalPlaces()).toBeLessThanOrEqual(2);
        },
      ),
    );
  });

  it('property: a sell credits cash − commission, never below zero, for at most the reserved units', () => {
    fc.assert(
      fc.property(
        decimal(0.00000001, 1000, 8),
        decimal(0, 1000, 8),
        decimal(0.0001, 10000, 4),
        decimal(0, 10, 4),
        (q, reserved, p, perUnit) => {
          const order = orderRow({
            side: 'sell',
            hold_amount: reserved.plus(q).toFixed(),
            hold_used: reserved.toFixed(),
            commission_type: 'qty',
            commission_rate: perUnit.toFixed(),
          });
          fc.pre(q.times(p).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).gt(0));
          const a = fillAmounts(order, { quantity: q.plus(1), price: p }, null);
          expect(a.quantity.toFixed()).toBe(q.toFixed());
          expect(a.net.gte(0)).toBe(true);
          expect(a.net.toFixed()).toBe(a.cash.minus(a.commission).toFixed());
        },
      ),
    );
  });
});

describe('planFill (pure)', () => {
  const buy = orderRow({
    quantity: '100',
    hold_amount: '1100',
    commission_type: 'notional',
    commission_rate: '1',
  });

  it('a partial buy fill uses its cost from the hold and leaves the order partially filled', () => {
    const plan = planFill(buy, fill('40', '10.5'), null, at);
    expect(plan).toMatchObject({ sequence: 1, done: false });
    expect(plan.fromHold.toFixed()).toBe('421');
    expect(plan.order).toMatchObject({
      status: 'partially_filled',
      filled_quantity: '40',
      filled_notional: '420',
      fill_count: 1,
      price_decimals: 1,
      commission: '1',
      hold_used: '421',
      updated_at: at,
      filled_at: null,
    });
  });

  it('the last buy fill uses the whole hold (the rest is released) and fills the order', () => {
    const partly = planFill(buy, fill('40', '10.5'), null, at).order;
    const plan = planFill(partly, fill('60', '10.25'), null, at);
    expect(plan.done).toBe(true);
    expect(plan.fromHold.toFixed()).toBe('615');
    expect(plan.order).toMatchObject({
      status: 'filled',
      filled_quantity: '100',
      filled_notional: '1035',
      fill_count: 2,
      price_decimals: 2,
      hold_used: '1100',
      filled_at: at,
    });
  });

  it('a buy above what is still held takes only what is held from the hold', () => {
    const plan = planFill({ ...buy, hold_used: '1000' }, fill('100', '10.99'), null, at);
    expect(plan.fromHold.toFixed()).toBe('100');
    const none = planFill({ ...buy, hold_used: '1100' }, fill('100', '10.99'), null, at);
    expect(none.fromHold.toFixed()).toBe('0');
    expect(none.order.hold_used).toBe('1100');
  });

  it('a notional order fills once, its filled quantity what that fill bought', () => {
    const notional = orderRow({ quantity: null, notional: '100', hold_amount: '100', filled_quantity: '0' });
    const plan = planFill(notional, fill('9.52380952', '10.5'), null, at);
    expect(plan.order).toMatchObject({ status: 'filled', filled_quantity: '9.52380952' });
  });

  it('ioc: the fill ends the order canceled, with the reason', () => {
    const ioc = orderRow({ time_in_force: 'ioc', hold_amount: '1100' });
    const plan = planFill(
      ioc,
      { ...fill('30', '10'), cancelRest: 'ioc: 70 not fillable at the quote' },
      null,
      at,
    );
    expect(plan.done).toBe(true);
    expect(plan.order).toMatchObject({
      status: 'canceled',
      canceled_at: at,
      cancel_reason: 'ioc: 70 not fillable at the quote',
      filled_at: null,
    });
  });

  it('a sell uses the units it sold', () => {
    const sell = orderRow({
      side: 'sell',
      quantity: '10',
      hold_amount: '10',
      hold_used: '4',
      filled_quantity: '4',
    });
    const plan = planFill(sell, fill('6', '20'), null, at);
    expect(plan.fromHold.toFixed()).toBe('0');
    expect(plan.order).toMatchObject({ status: 'filled', hold_used: '10', filled_quantity: '10' });
  });

  it('writes a balanced journal and an execution carrying the same amounts', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
        decimal(1, 1000, 0),
        decimal(0.01, 1000, 2),
        decimal(0, 50, 2),
        (side, q, p, bps) => {
          const order = orderRow({
            side,
            quantity: q.toFixed(),
            hold_amount: side === 'sell' ? q.toFixed() : '0',
            commission_type: 'bps',
            commission_rate: bps.toFixed(),
          });
          const plan = planFill(order, fill(q, p), null, at);
          const journal = fillJournal(order, plan, at);
          const sum = (direction: string) =>
            journal.entries
              .filter((e) => e.direction === direction)
              .reduce((total, e) => total.plus(e.amount), new Decimal(0));
          expect(sum('debit').eq(sum('credit'))).toBe(true);
          expect(journal.journalKey).toBe(`order:${order.id}:fill:1`);
          const execution = executionOf(order, plan, fill(q, p), 'exe_1', at);
          expect(execution.net_amount).toBe(plan.amounts.net.toFixed());
          expect(new Decimal(execution.gross_amount).plus(execution.accrued_interest).toFixed()).toBe(
            plan.amounts.cash.toFixed(),
          );
        },
      ),
    );
  });
});

const d = (value: Decimal.Value) => new Decimal(value);
const at = new Date('2025-11-20T15:00:00Z');
const fill = (quantity: Decimal.Value, price: Decimal.Value) => ({
  quantity: d(quantity),
  price: d(price),
  source: 'simulated',
});
const amountsText = (
  order: OrderRow,
  quantity: string,
  price: string,
  accruedPer100: string | null = null,
) => {
  const a = fillAmounts(order, fill(quantity, price), accruedPer100 === null ? null : d(accruedPer100));
  return {
    quantity: a.quantity.toFixed(),
    gross: a.gross.toFixed(),
    cash: a.cash.toFixed(),
    commission: a.commission.toFixed(),
    net: a.net.toFixed(),
  };
};

/** Decimals with `dp` places in [min, max], drawn as integers so none is a float. */
const decimal = (min: number, max: number, dp: number) =>
  fc
    .integer({ min: Math.round(min * 10 ** dp), max: Math.round(max * 10 ** dp) })
    .map((n) => new Decimal(n).div(10 ** dp));
