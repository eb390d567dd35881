import { madeBeforeAll } from './made-before-all';

describe('madeBeforeAll: a value made by a beforeAll, usable as a const', () => {
  let readEarly: unknown;
  beforeAll(() => {
    try {
      readEarly = made.name;
    } catch (error) {
      readEarly = error;
    }
  });
  const made = madeBeforeAll('The made value', () => Promise.resolve({ name: 'made', greet: greeter() }));

  it('answers with the made value once its hook has run, its methods bound to it', () => {
    expect(made.name).toBe('made');
    expect(made.greet()).toBe('hello from made');
    expect({ ...made }).toEqual({ name: 'made', greet: expect.any(Function) });
    expect('name' in made).toBe(true);
  });

  it('refuses a read before its hook ran, naming the value', () => {
    expect(readEarly).toEqual(
      new Error('The made value is made by the file’s beforeAll: read it inside a hook or a test.'),
    );
  });
});

function greeter() {
  return function (this: { name: string }) {
    return `hello from ${this.name}`;
  };
}
