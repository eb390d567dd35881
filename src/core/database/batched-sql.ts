const PLACEHOLDER = /\$(\d+)/g;

/**
 * A statement's `$1..$n` renumbered to follow `offset` parameters of the statements before it in
 * one combined statement (WriteBatch, ReadBatch). A placeholder beyond its own parameters is a
 * programming error.
 */
export function renumberParameters(sql: string, count: number, offset: number, label: string): string {
  return sql.replace(PLACEHOLDER, (_, n: string) => {
    const index = Number(n);
    if (index < 1 || index > count) {
      throw new Error(`${label} uses $${n} but has ${count} parameters.`);
    }
    return `$${index + offset}`;
  });
}

/** One statement of a batch as far as its combined text depends on it. */
export interface BatchedPart {
  readonly sql: string;
  readonly params: readonly unknown[];
}

interface ShapeNode {
  /** Next statement's text, then its parameter count. */
  readonly next: Map<string, Map<number, ShapeNode>>;
  text?: string;
}

/** Shapes kept per batch kind: the hot routes send a handful; generated SQL must not grow it forever. */
const SHAPES_LIMIT = 2000;

/**
 * The combined text of a batch, built once per shape (the sequence of statement texts and their
 * parameter counts) rather than per request: renumbering the placeholders and joining the parts
 * was the largest allocation of a deposit. Returning the same string each time also lets the
 * prepared statement's name be found without hashing a new text.
 */
export class BatchedSqlCache {
  private root: ShapeNode = { next: new Map() };
  private shapes = 0;

  constructor(private readonly build: (parts: readonly BatchedPart[]) => string) {}

  text(parts: readonly BatchedPart[]): string {
    let node = this.root;
    for (const part of parts) {
      let byCount = node.next.get(part.sql);
      if (byCount === undefined) {
        byCount = new Map();
        node.next.set(part.sql, byCount);
      }
      let child = byCount.get(part.params.length);
      if (child === undefined) {
        child = { next: new Map() };
        byCount.set(part.params.length, child);
      }
      node = child;
    }
    if (node.text === undefined) {
      const text = this.build(parts);
      if (this.shapes >= SHAPES_LIMIT) {
        this.root = { next: new Map() };
        this.shapes = 0;
      }
      this.shapes++;
      node.text = text;
    }
    return node.text;
  }
}
