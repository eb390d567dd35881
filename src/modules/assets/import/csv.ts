/**
 * RFC 4180 CSV: comma separated, optional double quotes, "" inside quotes for a quote, line breaks
 * inside quotes kept. Returns the rows as arrays of fields.
 */
export function parseCsvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (quoted) {
      if (c === '"' && input[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && input[i + 1] === '\n') {
        i++;
      }
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else {
      field += c;
    }
  }
  if (quoted) {
    throw new Error('CSV ends inside a quoted field.');
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0].trim() === ''));
}

/**
 * CSV in the JSON files' format: one column per asset field; bond attributes in columns named
 * `bond.<field>`. Empty cells are null; `true`/`false` and numbers stay text here and are checked by
 * the record validation like JSON values.
 */
export function parseAssetCsv(text: string): Record<string, unknown>[] {
  const [header, ...rows] = parseCsvRows(text);
  if (!header) {
    return [];
  }
  const columns = header.map((h) => h.trim());
  return rows.map((cells, index) => {
    if (cells.length !== columns.length) {
      throw new Error(`CSV row ${index + 2} has ${cells.length} fields; the header has ${columns.length}.`);
    }
    const record: Record<string, unknown> = {};
    columns.forEach((column, i) => {
      const value = cells[i] === '' ? null : cells[i];
      if (column.startsWith('bond.')) {
        const bond = (record.bond ??= {}) as Record<string, unknown>;
        bond[column.slice(5)] = value;
      } else {
        record[column] = value;
      }
    });
    const bond = record.bond as Record<string, unknown> | undefined;
    if (bond && Object.values(bond).every((v) => v === null)) {
      record.bond = null;
    }
    return record;
  });
}
