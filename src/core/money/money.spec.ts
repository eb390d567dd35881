import { isDecimalText, money, toDecimalText, toMoneyText } from 'src/core/money/money';

describe('money', () => {
  it('adds decimals exactly where floats would not', () => {
    expect(money('0.1').plus('0.2').toString()).toBe('0.3');
  });

  it('rounds half to even at the requested scale', () => {
    expect(toMoneyText('2.345', 2)).toBe('2.34');
    expect(toMoneyText('2.355', 2)).toBe('2.36');
  });

  it('renders canonical decimal text', () => {
    expect(toDecimalText('1.500')).toBe('1.5');
    expect(isDecimalText('12.50')).toBe(true);
    expect(isDecimalText('1e5')).toBe(false);
  });
});
