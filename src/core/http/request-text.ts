/**
 * Checks every string and key of request input (JSON body, query, path ids) for what PostgreSQL
 * and JavaScript cannot hold safely: NUL bytes (PostgreSQL text refuses them), lone UTF-16
 * surrogates (not encodable as UTF-8), prototype keys, nesting deeper than a fixed limit
 * (recursive validation would overflow the stack), and objects or arrays wider than
 * MAX_OBJECT_KEYS or MAX_ARRAY_ITEMS (so the per-field work after parsing stays bounded). The walk
 * is iterative, so the depth check itself cannot overflow, and visits each value once.
 */

/** Deepest nesting of arrays and objects accepted in a JSON body (the body itself is level 1). */
export const MAX_JSON_DEPTH = 32;
/** Most keys one JSON object may hold (partner metadata holds 50; the widest request DTO far fewer). */
export const MAX_OBJECT_KEYS = 100;
/** Most items one JSON array may hold (the longest documented request array holds 720). */
export const MAX_ARRAY_ITEMS = 1000;
/** Longest path parameter (ids, symbols, codes) accepted. */
export const MAX_PATH_PARAM_LENGTH = 128;
/** Longest query parameter value accepted. */
export const MAX_QUERY_VALUE_LENGTH = 2048;

export interface TextProblem {
  /** Field path (`contact.address.street[1]`), or undefined for the body as a whole. */
  param?: string;
  message: string;
}

interface Frame {
  value: unknown;
  depth: number;
  /** Index of the parent frame in `frames`, -1 for the root. */
  parent: number;
  segment: string | number | undefined;
}

/** Matches a UTF-16 surrogate that is not half of a pair (u-mode reads pairs as one code point). */
const LONE_SURROGATE = /\p{Cs}/u;

function textProblem(text: string, maxLength = Infinity): string | undefined {
  if (text.length > maxLength) {
    return `is longer than ${maxLength} characters`;
  }
  if (text.includes('\u0000')) {
    return 'contains a NUL byte (\\u0000)';
  }
  if (LONE_SURROGATE.test(text)) {
    return 'contains a lone UTF-16 surrogate (not valid Unicode text)';
  }
  return undefined;
}

/** Key as it appears in a param: control characters escaped so the path stays readable. */
export function keySegment(key: string): string {
  return key.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\ud800-\udfff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function pathOf(frames: Frame[], index: number, root: string | undefined): string | undefined {
  const segments: Array<string | number> = [];
  for (let i = index; i >= 0; i = frames[i].parent) {
    if (frames[i].segment !== undefined) {
      segments.unshift(frames[i].segment as string | number);
    }
  }
  let path = root ?? '';
  for (const segment of segments) {
    path = typeof segment === 'number' ? `${path}[${segment}]` : path === '' ? segment : `${path}.${segment}`;
  }
  return path === '' ? undefined : path;
}

/** A child of a container: a string is checked at once, an object or array is queued. */
function queue(
  item: unknown,
  depth: number,
  values: unknown[],
  depths: number[],
  maxLength: number,
): boolean {
  if (typeof item === 'string') {
    return textProblem(item, maxLength) !== undefined;
  }
  if (item !== null && typeof item === 'object') {
    values.push(item);
    depths.push(depth);
  }
  return false;
}

/**
 * Whether `value` may hold a problem: one pass that allocates nothing per value (most bodies have
 * none, and a body at the 1 MB limit holds a hundred thousand values). A `prototype` key anywhere
 * counts as maybe; the full walk tells.
 */
function mayHaveProblem(value: unknown, maxDepth: number, maxLength: number): boolean {
  const values: unknown[] = [];
  const depths: number[] = [];
  if (queue(value, 1, values, depths, maxLength)) {
    return true;
  }
  while (values.length > 0) {
    const current = values.pop() as object;
    const depth = depths.pop() as number;
    if (depth > maxDepth) {
      return true;
    }
    if (Array.isArray(current)) {
      if (current.length > MAX_ARRAY_ITEMS) {
        return true;
      }
      for (let i = 0; i < current.length; i++) {
        if (queue(current[i], depth + 1, values, depths, maxLength)) {
          return true;
        }
      }
      continue;
    }
    let keys = 0;
    for (const key in current) {
      keys++;
      if (keys > MAX_OBJECT_KEYS || key === '__proto__' || key === 'prototype' || textProblem(key)) {
        return true;
      }
      if (queue((current as Record<string, unknown>)[key], depth + 1, values, depths, maxLength)) {
        return true;
      }
    }
  }
  return false;
}

/**
 * The first problem in `value`, in document order, or undefined. `root` names the value itself
 * (a query or path parameter); the paths of body fields start at their top-level key.
 */
export function findTextProblem(
  value: unknown,
  root?: string,
  maxDepth = MAX_JSON_DEPTH,
  maxStringLength = Infinity,
): TextProblem | undefined {
  return mayHaveProblem(value, maxDepth, maxStringLength)
    ? locateTextProblem(value, root, maxDepth, maxStringLength)
    : undefined;
}

/** The full walk, which names the field: run only when the quick pass found something. */
// eslint-disable-next-line max-lines-per-function -- one walk over a JSON text with its states side by side; split, the states would pass through parameters.
function locateTextProblem(
  value: unknown,
  root: string | undefined,
  maxDepth: number,
  maxStringLength: number,
): TextProblem | undefined {
  const frames: Frame[] = [{ value, depth: 1, parent: -1, segment: undefined }];
  const stack: number[] = [0];
  while (stack.length > 0) {
    const index = stack.pop() as number;
    const { value: current, depth } = frames[index];
    if (typeof current === 'string') {
      const problem = textProblem(current, maxStringLength);
      if (problem) {
        return { param: pathOf(frames, index, root), message: problem };
      }
      continue;
    }
    if (current === null || typeof current !== 'object') {
      continue;
    }
    if (depth > maxDepth) {
      // Named by the outermost field: the full path of a nesting bomb is as long as the bomb.
      let top = index;
      while (frames[top].parent > 0) {
        top = frames[top].parent;
      }
      const field = frames[top].segment;
      return {
        param: root ?? (typeof field === 'string' ? field : undefined),
        message: `is nested deeper than ${maxDepth} levels of arrays and objects`,
      };
    }
    const children: Frame[] = [];
    if (Array.isArray(current)) {
      if (current.length > MAX_ARRAY_ITEMS) {
        frames.push({ value: undefined, depth: depth + 1, parent: index, segment: MAX_ARRAY_ITEMS });
        return {
          param: pathOf(frames, frames.length - 1, root),
          message: `is one item too many: an array holds at most ${MAX_ARRAY_ITEMS} items`,
        };
      }
      current.forEach((item, i) =>
        children.push({ value: item, depth: depth + 1, parent: index, segment: i }),
      );
    } else {
      const entries = Object.entries(current);
      if (entries.length > MAX_OBJECT_KEYS) {
        const key = keySegment(entries[MAX_OBJECT_KEYS][0]);
        frames.push({ value: undefined, depth: depth + 1, parent: index, segment: key });
        return {
          param: pathOf(frames, frames.length - 1, root),
          message: `is one key too many: an object holds at most ${MAX_OBJECT_KEYS} keys`,
        };
      }
      for (const [key, item] of entries) {
        const isPrototypeKey =
          key === '__proto__' || (key === 'prototype' && frames[index].segment === 'constructor');
        const keyText = isPrototypeKey ? undefined : textProblem(key);
        const keyProblem = isPrototypeKey
          ? 'is a prototype key (`__proto__`, `constructor.prototype`), which is not accepted'
          : keyText && `is a key that ${keyText}`;
        if (keyProblem) {
          frames.push({ value: undefined, depth: depth + 1, parent: index, segment: keySegment(key) });
          return { param: pathOf(frames, frames.length - 1, root), message: keyProblem };
        }
        children.push({ value: item, depth: depth + 1, parent: index, segment: key });
      }
    }
    for (let i = children.length - 1; i >= 0; i -= 1) {
      frames.push(children[i]);
      stack.push(frames.length - 1);
    }
  }
  return undefined;
}

/** The problem as the sentence an error message carries. */
export function describeTextProblem(problem: TextProblem): string {
  return problem.param
    ? `Invalid ${problem.param}: ${problem.message}.`
    : `The JSON body ${problem.message}.`;
}
