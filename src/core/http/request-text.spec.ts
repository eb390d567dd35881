import { describeTextProblem, findTextProblem, MAX_JSON_DEPTH } from 'src/core/http/request-text';

describe('findTextProblem', () => {
  it('accepts ordinary input, emoji included', () => {
    expect(findTextProblem({ a: ['x', 1, null, { b: 'rocket 🚀' }], c: true })).toBeUndefined();
  });

  it('names the first NUL or lone surrogate in document order', () => {
    expect(findTextProblem({ a: 'ok', b: { c: ['x', 'y\u0000'] }, d: '\ud800' })).toEqual({
      param: 'b.c[1]',
      message: 'contains a NUL byte (\\u0000)',
    });
    expect(findTextProblem({ note: 'a\udc00' })?.param).toBe('note');
    expect(findTextProblem('x\u0000', 'investor_id')).toEqual({
      param: 'investor_id',
      message: 'contains a NUL byte (\\u0000)',
    });
  });

  it('checks keys, escaping control characters in the path', () => {
    expect(findTextProblem({ m: { 'a\u0000b': 'x' } })?.param).toBe('m.a\\u0000b');
    expect(findTextProblem(JSON.parse('{"m":{"__proto__":{"x":1}}}'))?.param).toBe('m.__proto__');
    expect(findTextProblem({ constructor: { prototype: {} } })?.param).toBe('constructor.prototype');
    expect(findTextProblem({ constructor: 'fine', prototype: 'fine' })).toBeUndefined();
  });

  it('refuses nesting past the limit without recursing, named by the top-level field', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i += 1) {
      deep = [deep];
    }
    expect(findTextProblem(deep)).toEqual({
      param: undefined,
      message: `is nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`,
    });
    expect(findTextProblem({ metadata: deep })?.param).toBe('metadata');
    let atLimit: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH; i += 1) {
      atLimit = { a: atLimit };
    }
    expect(findTextProblem({ a: atLimit })).toBeDefined();
    expect(findTextProblem(atLimit)).toBeUndefined();
  });

  it('describes the problem as a sentence', () => {
    expect(describeTextProblem({ param: 'q', message: 'contains a NUL byte (\\u0000)' })).toBe(
      'Invalid q: contains a NUL byte (\\u0000).',
    );
    expect(describeTextProblem({ message: 'is nested deeper than 32 levels of arrays and objects' })).toBe(
      'The JSON body is nested deeper than 32 levels of arrays and objects.',
    );
  });
});
