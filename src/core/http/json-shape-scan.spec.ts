import { findShapeProblem } from 'src/core/http/json-shape-scan';

const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

describe('findShapeProblem (before parsing)', () => {
  it('names the first key past 100 in an object, at any depth', () => {
    expect(findShapeProblem(JSON.stringify(keys(50_000)))?.param).toBe('k100');
    expect(findShapeProblem(JSON.stringify({ a: [0, { 'b"\n': keys(101) }] }))?.param).toBe(
      'a[1].b"\\u000a.k100',
    );
  });

  it('names the first item past 1000 in an array', () => {
    expect(findShapeProblem(JSON.stringify({ a: { b: Array(60_000).fill('],{') } }))?.param).toBe(
      'a.b[1000]',
    );
    expect(findShapeProblem(JSON.stringify(Array(1001).fill(1)))?.param).toBe('[1000]');
  });

  it('leaves bodies at the limits, and strings that look like brackets or escapes, alone', () => {
    const body = { a: Array(1000).fill({ x: '\\"{[,' }), b: keys(99), c: [[], {}, ''] };
    expect(findShapeProblem(JSON.stringify(body))).toBeUndefined();
    expect(findShapeProblem(JSON.stringify(keys(100)))).toBeUndefined();
  });

  it('refuses nesting past 32 levels, named by the top-level field', () => {
    const deep = `{"metadata":${'{"a":'.repeat(40)}1${'}'.repeat(40)}}`;
    expect(findShapeProblem(deep)).toEqual({
      param: 'metadata',
      message: 'is nested deeper than 32 levels of arrays and objects',
    });
    expect(findShapeProblem(`${'['.repeat(5000)}${']'.repeat(5000)}`)?.param).toBeUndefined();
  });

  it('leaves malformed text to the parser', () => {
    expect(findShapeProblem('{"a": "unterminated')).toBeUndefined();
    expect(findShapeProblem('}}]]')).toBeUndefined();
  });
});
