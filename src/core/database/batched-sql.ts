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
