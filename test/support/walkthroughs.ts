/**
 * The README's walkthroughs as data. A walkthrough is every ```sh block that the line
 * `<!-- walkthrough: NAME -->` precedes (blank lines aside) (several blocks of one name run in README order);
 * unmarked blocks are never run. In a block:
 * - a command is one or more lines (a line ending in `\` or inside an open quote continues);
 * - `# → STATUS BODY` under a command (or at the end of its last line) is the answer it must get:
 *   the HTTP status, then JSON in which `...` stands for more fields or items and a string ending
 *   in `...` for any string beginning with what precedes it (`"fs_..."`);
 * - other `#` lines are comments;
 * - in a command, `xxx_...` is the id with prefix `xxx_` of the latest answer that holds one, and
 *   `<field>` the latest answer's value of `field` (found at any depth).
 */
export interface Expected {
  status: number;
  body?: unknown;
  text: string;
}

export interface Step {
  command: string;
  line: number;
  expected?: Expected;
}

export interface Walkthrough {
  name: string;
  steps: Step[];
}

const MARKER = /^<!-- walkthrough: ([a-z0-9-]+) -->$/;
const ANSWER = /^# → (\d{3})(?:\s+(.*))?$/;

function quotesOpen(text: string): boolean {
  let single = false;
  let double = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'" && !double) {
      single = !single;
    } else if (c === '"' && !single && text[i - 1] !== '\\') {
      double = !double;
    }
  }
  return single || double;
}

/** The JSON of an answer line with its `...` elisions taken out (they are matched as "more"). */
export function parseExpected(status: string, body: string | undefined): Expected {
  const text = `${status}${body ? ` ${body}` : ''}`;
  if (!body) {
    return { status: Number(status), text };
  }
  const json = body.replace(/,\s*\.\.\.(?=\s*[}\]])/g, '').replace(/([[{])\s*\.\.\.\s*(?=[}\]])/g, '$1');
  return { status: Number(status), body: JSON.parse(json), text };
}

function splitAnswer(line: string): { command: string; answer?: RegExpExecArray } {
  const at = line.indexOf('  # → ');
  if (at < 0) {
    return { command: line };
  }
  return {
    command: line.slice(0, at).trimEnd(),
    answer: ANSWER.exec(line.slice(at + 2).trim()) ?? undefined,
  };
}

function parseBlock(lines: string[], firstLine: number): Step[] {
  const steps: Step[] = [];
  let pending: string[] = [];
  let start = 0;
  lines.forEach((raw, i) => {
    const line = raw.trimEnd();
    if (pending.length === 0) {
      const answer = ANSWER.exec(line.trim());
      if (answer) {
        const last = steps[steps.length - 1];
        if (!last || last.expected) {
          throw new Error(`README.md:${firstLine + i}: an answer without its command`);
        }
        last.expected = parseExpected(answer[1], answer[2]);
        return;
      }
      if (line.trim() === '' || line.trim().startsWith('#')) {
        return;
      }
      start = firstLine + i;
    }
    const { command, answer } = splitAnswer(line);
    pending.push(command);
    const joined = pending.join('\n');
    if (!quotesOpen(joined) && !joined.endsWith('\\')) {
      steps.push({
        command: joined,
        line: start,
        ...(answer ? { expected: parseExpected(answer[1], answer[2]) } : {}),
      });
      pending = [];
    }
  });
  if (pending.length > 0) {
    throw new Error(`README.md:${start}: a command that never ends (an open quote or a trailing \\)`);
  }
  return steps;
}

/** Every marked walkthrough of the markdown, in the order of their first block. */
export function walkthroughs(markdown: string): Walkthrough[] {
  const lines = markdown.split('\n');
  const byName = new Map<string, Step[]>();
  lines.forEach((line, i) => {
    const marker = MARKER.exec(line.trim());
    if (!marker) {
      return;
    }
    // Prettier puts a blank line between an HTML comment and the block that follows it.
    let fence = i + 1;
    while (lines[fence]?.trim() === '') {
      fence++;
    }
    if (lines[fence]?.trim() !== '```sh') {
      throw new Error(`README.md:${i + 1}: a walkthrough marker must come right before a \`\`\`sh block`);
    }
    const end = lines.findIndex((l, j) => j > fence && l.trim() === '```');
    const steps = parseBlock(lines.slice(fence + 1, end), fence + 2);
    byName.set(marker[1], [...(byName.get(marker[1]) ?? []), ...steps]);
  });
  return [...byName].map(([name, steps]) => ({ name, steps }));
}

/** Whether `actual` holds what `expected` shows (objects: these keys; arrays: these first items). */
export function matches(expected: unknown, actual: unknown): boolean {
  if (typeof expected === 'string' && expected.endsWith('...')) {
    return typeof actual === 'string' && actual.startsWith(expected.slice(0, -3));
  }
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length >= expected.length &&
      expected.every((e, i) => matches(e, actual[i]))
    );
  }
  if (expected && typeof expected === 'object') {
    return (
      !!actual &&
      typeof actual === 'object' &&
      !Array.isArray(actual) &&
      Object.entries(expected).every(
        ([k, v]) => k in actual && matches(v, (actual as Record<string, unknown>)[k]),
      )
    );
  }
  return expected === actual;
}

function* valuesOf(value: unknown, key?: string): Generator<[string | undefined, unknown]> {
  yield [key, value];
  if (Array.isArray(value)) {
    for (const v of value) {
      yield* valuesOf(v);
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      yield* valuesOf(v, k);
    }
  }
}

/** Fills `xxx_...` and `<field>` in a command from the answers so far (newest first). */
export function fillPlaceholders(command: string, answers: unknown[]): string {
  const newest = [...answers].reverse();
  const find = (test: (key: string | undefined, value: unknown) => boolean, what: string): string => {
    for (const answer of newest) {
      for (const [key, value] of valuesOf(answer)) {
        if (test(key, value)) {
          return String(value);
        }
      }
    }
    throw new Error(`no earlier answer holds ${what}`);
  };
  return command
    .replace(/\b([a-z]{2,6})_\.\.\./g, (_, prefix: string) =>
      find(
        (key, v) => typeof v === 'string' && new RegExp(`^${prefix}_[A-Za-z0-9_-]+$`).test(v),
        `an id ${prefix}_`,
      ),
    )
    .replace(/<([a-z_]+)>/g, (_, field: string) =>
      find((key, v) => key === field && (typeof v === 'string' || typeof v === 'number'), `a field ${field}`),
    );
}
