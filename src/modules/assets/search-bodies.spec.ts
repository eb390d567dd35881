import type { AssetQueryRow } from 'src/modules/assets/asset-queries';
import { SearchBodies } from 'src/modules/assets/search-bodies';

const rows = (): AssetQueryRow[] => [{ id: 'a' } as AssetQueryRow];
const at = (iso: string) => new Date(iso);

describe('SearchBodies', () => {
  it('answers a kept body for the same list, variant and minute only', () => {
    const bodies = new SearchBodies();
    const list = rows();
    const body = Buffer.from('{"object":"list"}');
    bodies.keep(list, '50|false|/v1/assets/search', at('2026-01-05T15:00:10Z'), body);
    expect(bodies.get(list, '50|false|/v1/assets/search', at('2026-01-05T15:00:59.999Z'))).toBe(body);
    expect(bodies.get(list, '50|true|/v1/assets/search', at('2026-01-05T15:00:20Z'))).toBeUndefined();
    expect(bodies.get(list, '50|false|/v1/assets/search', at('2026-01-05T15:01:00Z'))).toBeUndefined();
    expect(bodies.get(rows(), '50|false|/v1/assets/search', at('2026-01-05T15:00:20Z'))).toBeUndefined();
  });

  it('keeps only the latest minute of a list', () => {
    const bodies = new SearchBodies();
    const list = rows();
    bodies.keep(list, 'v', at('2026-01-05T15:00:00Z'), Buffer.from('old'));
    bodies.keep(list, 'v', at('2026-01-05T15:01:00Z'), Buffer.from('new'));
    expect(bodies.get(list, 'v', at('2026-01-05T15:00:30Z'))).toBeUndefined();
    expect(bodies.get(list, 'v', at('2026-01-05T15:01:30Z'))?.toString()).toBe('new');
  });
});
