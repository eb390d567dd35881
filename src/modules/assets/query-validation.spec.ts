import { SearchAssetsQuery } from 'src/modules/assets/dto/search-assets.query';
import { validateQuery } from 'src/modules/assets/query-validation';

describe('validateQuery', () => {
  it('answers a query validated before with the same frozen instance', () => {
    const first = validateQuery(SearchAssetsQuery, { q: 'apple', limit: '5' });
    expect(first).toMatchObject({ q: 'apple', limit: 5 });
    expect(Object.isFrozen(first)).toBe(true);
    expect(validateQuery(SearchAssetsQuery, { q: 'apple', limit: '5' })).toBe(first);
    expect(validateQuery(SearchAssetsQuery, { q: 'apple', limit: '6' })).toMatchObject({ limit: 6 });
  });

  it('refuses an invalid query every time', () => {
    for (let i = 0; i < 2; i++) {
      expect(() => validateQuery(SearchAssetsQuery, { q: 'apple', limit: '0' })).toThrow();
      expect(() => validateQuery(SearchAssetsQuery, { q: ['a', 'b'] })).toThrow();
    }
  });
});
