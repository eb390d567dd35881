/**
 * A value a file's beforeAll makes (the booted app, a tenant), usable as a `const` from the top of
 * the file: the returned object answers with the value's members once the hook has run, and a read
 * before that (at the file's top level, or in an earlier hook) fails naming `what`.
 *
 * This keeps a spec's preamble to the lines that say what it needs (`const ctx = useTestContext()`)
 * instead of a `let` per value, a beforeAll assigning each and an afterAll closing them.
 */
export function madeBeforeAll<T extends object>(what: string, make: () => Promise<T>): T {
  let made: T | undefined;
  beforeAll(async () => {
    made = await make();
  });
  const value = (): T => {
    if (made === undefined) {
      throw new Error(`${what} is made by the file’s beforeAll: read it inside a hook or a test.`);
    }
    return made;
  };
  return new Proxy({} as T, {
    get(_, key) {
      const target = value();
      const member: unknown = Reflect.get(target, key);
      return typeof member === 'function' ? member.bind(target) : member;
    },
    set(_, key, member) {
      return Reflect.set(value(), key, member);
    },
    has: (_, key) => Reflect.has(value(), key),
    ownKeys: () => Reflect.ownKeys(value()),
    getOwnPropertyDescriptor(_, key) {
      const descriptor = Reflect.getOwnPropertyDescriptor(value(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
