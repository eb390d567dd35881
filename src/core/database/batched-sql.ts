const PLACEHOLDER = /\$(\d+)/g;
/** Statement texts remembered with their renumberings (a batch's statements are the same few texts). */
const KEPT_TEXTS = 2000;

interface Renumberings {
  /** The lowest and highest placeholder the text uses (1 and 0 when it uses none). */
  lowest: number;
  highest: number;
  byOffset: Map<number, string>;
}

const kept = new Map<string, Renumberings>();

/**
 * A statement's `$1..$n` renumbered to follow `offset` parameters of the statements before it in
 * one combined statement (WriteBatch, ReadBatch). A placeholder beyond its own parameters is a
 * programming error. Each text's renumbering per offset is worked out once and remembered.
 */
export function renumberParameters(sql: string, count: number, offset: number, label: string): string {
  const known = kept.get(sql) ?? remember(sql);
  if (known.highest > count || known.lowest < 1) {
    const wrong = known.lowest < 1 ? known.lowest : known.highest;
    throw new Error(`${label} uses $${wrong} but has ${count} parameters.`);
  }
  let renumbered = known.byOffset.get(offset);
  if (renumbered === undefined) {
    renumbered = sql.replace(PLACEHOLDER, (_, n: string) => `$${Number(n) + offset}`);
    known.byOffset.set(offset, renumbered);
  }
  return renumbered;
}

function remember(sql: string): Renumberings {
  let lowest = Infinity;
  let highest = 0;
  for (const [, n] of sql.matchAll(PLACEHOLDER)) {
    lowest = Math.min(lowest, Number(n));
    highest = Math.max(highest, Number(n));
  }
  const known = { lowest: lowest === Infinity ? 1 : lowest, highest, byOffset: new Map<number, string>() };
  if (kept.size >= KEPT_TEXTS) {
    kept.clear();
  }
  kept.set(sql, known);
  return known;
}
