import {
  anyPatternMatches,
  isEventFilter,
  isEventPattern,
  patternMatches,
} from 'src/core/events/event-patterns';

describe('event patterns', () => {
  it.each(['order.filled', 'kyc.verification.approved', 'order.*', 'transfer.*', 'account.*', '*'])(
    'accepts %s',
    (p) => expect(isEventPattern(p)).toBe(true),
  );

  it('accepts sub-domain wildcards of known names', () => {
    expect(isEventPattern('transfer.deposit.*')).toBe(true);
    expect(isEventPattern('kyc.verification.*')).toBe(true);
  });

  it.each([
    'order',
    'order.',
    'order.**',
    'orders.*',
    'order.filled.*',
    'foo.bar',
    '*.filled',
    '',
    'webhook.test',
  ])('refuses %j', (p) => expect(isEventPattern(p)).toBe(false));

  it('the list filter also knows the test event', () => {
    expect(isEventFilter('webhook.test')).toBe(true);
    expect(isEventFilter('webhook.*')).toBe(false);
  });

  it('wildcards match their domain only, at a dot boundary', () => {
    expect(patternMatches('order.*', 'order.filled')).toBe(true);
    expect(patternMatches('order.*', 'order.partially_filled')).toBe(true);
    expect(patternMatches('order.*', 'transfer.deposit.completed')).toBe(false);
    expect(patternMatches('transfer.*', 'transfer.withdrawal.failed')).toBe(true);
    expect(patternMatches('transfer.deposit.*', 'transfer.withdrawal.failed')).toBe(false);
    expect(patternMatches('*', 'document.approved')).toBe(true);
    expect(patternMatches('order.filled', 'order.filled')).toBe(true);
    expect(patternMatches('order.filled', 'order.canceled')).toBe(false);
    expect(anyPatternMatches(['account.created', 'order.*'], 'order.rejected')).toBe(true);
    expect(anyPatternMatches(['account.created', 'order.*'], 'account.updated')).toBe(false);
  });
});
