import { parseAssetCsv, parseCsvRows } from 'src/modules/assets/import/csv';

describe('CSV reading', () => {
  it('handles quotes, doubled quotes, embedded commas and line breaks, CRLF and a BOM', () => {
    const text = '\ufeffa,b,c\r\n"x, y","say ""hi""","two\nlines"\r\nplain,,end\n';
    expect(parseCsvRows(text)).toEqual([
      ['a', 'b', 'c'],
      ['x, y', 'say "hi"', 'two\nlines'],
      ['plain', '', 'end'],
    ]);
  });

  it('maps bond.<field> columns to the bond object and empty cells to null', () => {
    const records = parseAssetCsv(
      'symbol,country,bond.cusip,bond.next_call_date\nAAPL,us,,\nT 4,us,91282CLW9,\n',
    );
    expect(records).toEqual([
      { symbol: 'AAPL', country: 'us', bond: null },
      { symbol: 'T 4', country: 'us', bond: { cusip: '91282CLW9', next_call_date: null } },
    ]);
  });

  it('refuses ragged rows and unterminated quotes', () => {
    expect(() => parseAssetCsv('a,b\n1\n')).toThrow('CSV row 2 has 1 fields; the header has 2.');
    expect(() => parseCsvRows('a,"b\n')).toThrow('CSV ends inside a quoted field.');
  });
});
