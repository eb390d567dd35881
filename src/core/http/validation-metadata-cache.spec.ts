import { getMetadataStorage, IsString, validate } from 'class-validator';
import { installValidationMetadataCache } from 'src/core/http/validation-metadata-cache';

describe('installValidationMetadataCache', () => {
  installValidationMetadataCache();
  installValidationMetadataCache(); // a second install is a no-op

  class Named {
    @IsString()
    name!: unknown;
  }

  it('answers the same rules as before, from memory the second time', () => {
    const storage = getMetadataStorage();
    const first = storage.getTargetValidationMetadatas(Named, '', false, false);
    expect(first.map((m) => m.propertyName)).toEqual(['name']);
    expect(storage.getTargetValidationMetadatas(Named, '', false, false)).toBe(first);
  });

  it('forgets what it remembered when a class gains rules', async () => {
    class Later {
      @IsString()
      first!: unknown;
    }
    expect((await validate(Object.assign(new Later(), { first: 1 }))).map((e) => e.property)).toEqual([
      'first',
    ]);
    // A decorator applied afterwards (as a subclass or a mixin would) is seen at once.
    IsString()(Later.prototype, 'second');
    const errors = await validate(Object.assign(new Later(), { first: 1, second: 2 }));
    expect(errors.map((e) => e.property)).toEqual(['first', 'second']);
  });
});
