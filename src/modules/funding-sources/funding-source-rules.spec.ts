import { isAbaRoutingNumber } from 'src/modules/funding-sources/funding-source-rules';

describe('ABA routing numbers', () => {
  it.each(['110000000', '021000021', '011401533', '091000019'])('accepts %s', (value) =>
    expect(isAbaRoutingNumber(value)).toBe(true),
  );
  it.each(['110000001', '021000022', '12345678', '1234567890', 'abcdefghi'])('refuses %s', (value) =>
    expect(isAbaRoutingNumber(value)).toBe(false),
  );
});
