import { assetLookupQuery, assetSearchQuery } from 'src/modules/assets/asset-queries';

/** Highest $n placeholder used in the text. */
function highestPlaceholder(text: string): number {
  return Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
}

describe('asset queries', () => {
  it.each([
    [{}],
    [{ q: 'a' }],
    [{ q: 'ms', classes: ['equity'] as const, country: 'us' }],
    [{ q: 'apple', markets: ['XNAS'], marketCountry: 'US' }],
    [{ q: '100%_sure\\', classes: ['etf'] as const }],
  ])('binds exactly the parameters it uses (%j)', (extra) => {
    const { text, values } = assetSearchQuery({
      status: 'active',
      take: 11,
      overrideTenant: 'ten_1',
      ...extra,
    });
    expect(highestPlaceholder(text)).toBe(values.length);
    for (let i = 1; i <= values.length; i++) {
      expect(text).toContain(`$${i}`);
    }
  });

  it('matches LIKE wildcards in q literally', () => {
    const { values } = assetSearchQuery({ q: '100%_sure', status: 'active', take: 5, overrideTenant: null });
    expect(values).toContain('100\\%\\_SURE%');
    expect(values).toContain('%100\\%\\_sure%');
  });

  it('uses the trigram tier only from three characters', () => {
    expect(assetSearchQuery({ q: 'ap', status: 'active', take: 5, overrideTenant: null }).text).not.toContain(
      'ILIKE',
    );
    expect(assetSearchQuery({ q: 'app', status: 'active', take: 5, overrideTenant: null }).text).toContain(
      'ILIKE',
    );
  });

  it('looks one asset up by id, ISIN or symbol', () => {
    for (const kind of ['id', 'isin', 'symbol'] as const) {
      const { text, values } = assetLookupQuery(kind, 'AAPL', null);
      expect(highestPlaceholder(text)).toBe(values.length);
    }
  });
});
