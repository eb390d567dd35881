import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');
/** How far down a spec's first test may start: its imports and the few lines naming what it needs. */
const FIRST_TEST_WITHIN = 25;
/** A test's first line: `it(`, `it.each(`, `itLocal(`, `test(` and the like. */
const TEST_START = /^\s*(it|test|it[A-Z]\w*)(\.(each|only|skip|concurrent|failing))*\s*[(`]/;

describe('Spec layout: a reader meets the first test near the top of each spec', () => {
  it(`every spec's first test starts within ${FIRST_TEST_WITHIN} lines`, () => {
    const far = specFiles()
      .map((file) => ({ file: relative(ROOT, file), line: firstTestLine(file) }))
      .filter(({ line }) => line > FIRST_TEST_WITHIN)
      .map(({ file, line }) => `${file}: line ${line}`);
    expect(far).toEqual([]);
  });

  it('finds the first test however it is written', () => {
    expect(firstTestLineOf(['import x;', '', "it.each([1])('a', () => {});"])).toBe(3);
    expect(firstTestLineOf(["  itLocal('a', async () => {"])).toBe(1);
    expect(firstTestLineOf(['const items = [];', "  test('a', () => {"])).toBe(2);
    expect(firstTestLineOf(['describe(() => {', '  item();', '  iterate();'])).toBe(Infinity);
  });
});

function specFiles(): string[] {
  return [join(ROOT, 'src'), join(ROOT, 'test')].flatMap((dir) =>
    (readdirSync(dir, { recursive: true }) as string[])
      .filter((name) => /\.(spec|e2e-spec|medium-spec)\.ts$/.test(name))
      .map((name) => join(dir, name)),
  );
}

function firstTestLine(file: string): number {
  return firstTestLineOf(readFileSync(file, 'utf8').split('\n'));
}

function firstTestLineOf(lines: string[]): number {
  const index = lines.findIndex((line) => TEST_START.test(line));
  return index === -1 ? Infinity : index + 1;
}
