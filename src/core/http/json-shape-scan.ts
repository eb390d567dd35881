import {
  keySegment,
  MAX_ARRAY_ITEMS,
  MAX_JSON_DEPTH,
  MAX_OBJECT_KEYS,
  TextProblem,
} from 'src/core/http/request-text';

interface Open {
  object: boolean;
  /** Keys or items met so far. */
  count: number;
  /** Waiting for the next key (object) or item (array): after the opening bracket or a comma. */
  awaiting: boolean;
  /** Where the object's latest key (its quoted text) starts and ends: decoded only to name it. */
  keyStart: number;
  keyEnd: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** Index of the quote closing the string opened at `start` (or the end of the text). */
function endOfString(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1);
  while (quote !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) {
      backslashes++;
    }
    if (backslashes % 2 === 0) {
      return quote;
    }
    quote = text.indexOf('"', quote + 1);
  }
  return text.length;
}

function decodeKey(raw: string): string {
  try {
    return keySegment(JSON.parse(raw) as string);
  } catch {
    return keySegment(raw.slice(1, -1));
  }
}

function keyOf(text: string, open: Open): string {
  return decodeKey(text.slice(open.keyStart, open.keyEnd + 1));
}

function pathOf(text: string, stack: Open[], last: string | number): string {
  let path = '';
  const segments: Array<string | number> = stack
    .slice(0, -1)
    .map((o) => (o.object ? keyOf(text, o) : o.count - 1));
  for (const segment of [...segments, last]) {
    path = typeof segment === 'number' ? `${path}[${segment}]` : path === '' ? segment : `${path}.${segment}`;
  }
  return path;
}

/**
 * Scans JSON text, before it is parsed, for an object wider than MAX_OBJECT_KEYS, an array longer
 * than MAX_ARRAY_ITEMS or nesting deeper than MAX_JSON_DEPTH, in one pass over the characters and
 * without building anything: parsing an object of tens of thousands of keys alone holds the event
 * loop for hundreds of milliseconds. Malformed text is left to the parser (undefined).
 */
export function findShapeProblem(text: string): TextProblem | undefined {
  const stack: Open[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isWhitespace(c)) {
      continue;
    }
    const top = stack[stack.length - 1];
    if (top !== undefined && !top.object && top.awaiting && c !== 0x5d) {
      top.awaiting = false;
      top.count++;
      if (top.count > MAX_ARRAY_ITEMS) {
        return {
          param: pathOf(text, stack, MAX_ARRAY_ITEMS),
          message: `is one item too many: an array holds at most ${MAX_ARRAY_ITEMS} items`,
        };
      }
    }
    if (c === QUOTE) {
      const end = endOfString(text, i);
      if (top !== undefined && top.object && top.awaiting) {
        top.awaiting = false;
        top.count++;
        top.keyStart = i;
        top.keyEnd = end;
        if (top.count > MAX_OBJECT_KEYS) {
          return {
            param: pathOf(text, stack, keyOf(text, top)),
            message: `is one key too many: an object holds at most ${MAX_OBJECT_KEYS} keys`,
          };
        }
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      if (stack.length >= MAX_JSON_DEPTH) {
        // Named by the outermost field, as the check after parsing names it.
        const field = stack.length > 1 && stack[0].object ? keyOf(text, stack[0]) : undefined;
        return {
          param: field,
          message: `is nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`,
        };
      }
      stack.push({ object: c === 0x7b, count: 0, awaiting: true, keyStart: 0, keyEnd: 0 });
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
    } else if (c === COMMA && top !== undefined) {
      top.awaiting = true;
    }
  }
  return undefined;
}
