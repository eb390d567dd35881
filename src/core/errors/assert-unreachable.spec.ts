import { assertUnreachable } from 'src/core/errors/assert-unreachable';

type Side = 'buy' | 'sell';

function sign(side: Side): number {
  switch (side) {
    case 'buy':
      return 1;
    case 'sell':
      return -1;
    default:
      return assertUnreachable(side, 'side');
  }
}

describe('assertUnreachable', () => {
  it('lets every member through its case and throws for a value outside the union', () => {
    expect(sign('buy')).toBe(1);
    expect(sign('sell')).toBe(-1);
    expect(() => sign('short' as Side)).toThrow('Unexpected side: short');
  });
});
