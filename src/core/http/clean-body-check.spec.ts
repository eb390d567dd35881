import { plainToInstance } from 'class-transformer';
import {
  IsInt,
  IsOptional,
  IsString,
  ValidateIf,
  ValidateNested,
  validate,
  ValidatorOptions,
} from 'class-validator';
import fc from 'fast-check';
import { passesValidationCleanly } from 'src/core/http/clean-body-check';
import { installValidationMetadataCache } from 'src/core/http/validation-metadata-cache';
import { PlaceOrderDto } from 'src/modules/trading/dto/place-order.dto';

describe('passesValidationCleanly', () => {
  installValidationMetadataCache();

  it('says "valid" exactly when class-validator finds no error, for order bodies of every shape', async () => {
    await fc.assert(
      fc.asyncProperty(orderBody(), async (body) => {
        const dto = plainToInstance(PlaceOrderDto, body);
        const errors = await validate(dto, PIPE_OPTIONS);
        expect(passesValidationCleanly(dto, PIPE_OPTIONS)).toBe(errors.length === 0);
      }),
      { numRuns: 400 },
    );
  });

  it('follows conditions, and leaves unknown fields to class-validator', () => {
    const order = { symbol: 'AAPL', side: 'buy', type: 'market', time_in_force: 'day', quantity: '1' };
    expect(passesValidationCleanly(plainToInstance(PlaceOrderDto, order), PIPE_OPTIONS)).toBe(true);
    const extra = plainToInstance(PlaceOrderDto, { ...order, nickname: 'x' });
    expect(passesValidationCleanly(extra, PIPE_OPTIONS)).toBe(false);
    expect(passesValidationCleanly(extra, { ...PIPE_OPTIONS, whitelist: false })).toBe(true);
    expect(
      passesValidationCleanly(Object.assign(new Conditional(), { kind: 'a', code: 'x' }), PIPE_OPTIONS),
    ).toBe(false);
    expect(
      passesValidationCleanly(Object.assign(new Conditional(), { kind: 'b', code: 'x' }), PIPE_OPTIONS),
    ).toBe(true);
    expect(
      passesValidationCleanly(Object.assign(new Conditional(), { kind: 'a', code: 7 }), PIPE_OPTIONS),
    ).toBe(true);
  });

  it('never answers for classes with nested rules, no rules, or options it does not follow', () => {
    const parent = Object.assign(new Parent(), { child: Object.assign(new Conditional(), { kind: 'b' }) });
    expect(passesValidationCleanly(parent, PIPE_OPTIONS)).toBe(false);
    expect(passesValidationCleanly(new NoRules(), PIPE_OPTIONS)).toBe(false);
    const fine = Object.assign(new Conditional(), { kind: 'b' });
    expect(passesValidationCleanly(fine, { ...PIPE_OPTIONS, groups: ['admin'] })).toBe(false);
    expect(passesValidationCleanly(fine, { ...PIPE_OPTIONS, skipMissingProperties: true })).toBe(false);
  });
});

/** As ServiceValidationPipe validates a body (Nest's ValidationPipe adds `validationError`). */
const PIPE_OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  validationError: { target: false, value: true },
};

class Conditional {
  @IsString()
  kind!: unknown;

  @ValidateIf((o: Conditional) => o.kind === 'a')
  @IsInt()
  code?: unknown;
}

class Parent {
  @ValidateNested()
  @IsOptional()
  child?: Conditional;
}

class NoRules {
  name = 'x';
}

/**
 * Order bodies: well-formed ones, and half of them spoiled in one field (a wrong type, bad text,
 * null, an empty value) or by a stray field, so both answers come up often.
 */
function orderBody(): fc.Arbitrary<Record<string, unknown>> {
  const decimal = fc.constantFrom('1', '10.5', '185.25', '0.00000001');
  const fields = {
    symbol: fc.constantFrom('AAPL', 'MTNN', 'US0378331005'),
    side: fc.constantFrom('buy', 'sell'),
    type: fc.constantFrom('market', 'limit', 'stop', 'stop_limit', 'trailing_stop'),
    time_in_force: fc.constantFrom('day', 'gtc', 'ioc', 'fok'),
    quantity: decimal,
    notional: decimal,
    limit_price: decimal,
    stop_price: decimal,
    trail_percent: decimal,
    trail_price: decimal,
    extended_hours: fc.boolean(),
    client_order_id: fc.constantFrom('rebalance-1', 'a'),
    settlement_date: fc.constant('2026-03-04'),
    metadata: fc.constantFrom({ strategy: 'dca' }, {}),
  };
  const good = fc.record(fields, { requiredKeys: ['symbol', 'side', 'type', 'time_in_force'] });
  const spoilt = fc.oneof(
    fc.constant(null),
    fc.integer(),
    fc.boolean(),
    fc.constantFrom('', 'hold', '-1', '1e3', '1.123456789', '2026-3-4', 'x'.repeat(129)),
    fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
    fc.constantFrom({ n: 1 }, { strategy: 'dca' }),
  );
  const field = fc.constantFrom(...Object.keys(fields), 'nickname');
  return fc
    .tuple(good, fc.option(fc.tuple(field, spoilt), { freq: 2 }))
    .map(([body, spoil]) => (spoil ? { ...body, [spoil[0]]: spoil[1] } : body));
}
