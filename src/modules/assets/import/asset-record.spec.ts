import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listedAssetId } from 'src/modules/assets/identifiers';
import { readAssetRecord } from 'src/modules/assets/import/asset-record';

const equity = {
  class: 'equity',
  country: 'US',
  market: 'xnas',
  symbol: 'AAPL',
  name: 'Apple Inc.',
  status: 'active',
  tradable: true,
  marginable: 'true',
  shortable: true,
  easy_to_borrow: true,
  fractionable: 'false',
  currency: 'USD',
  reference_price: '268.50',
};

describe('reading an asset record', () => {
  it('normalises a valid record and derives its id and market fields', () => {
    const result = readAssetRecord(equity);
    expect(result).toEqual({
      row: expect.objectContaining({
        id: listedAssetId('XNAS', 'AAPL'),
        market: 'XNAS',
        market_name: 'NASDAQ',
        market_country: 'US',
        market_currency: 'USD',
        country: 'us',
        marginable: true,
        fractionable: false,
        fractional_eh_enabled: false,
        bond: null,
      }),
    });
  });

  it('lists every problem by field', () => {
    const result = readAssetRecord({
      ...equity,
      class: 'stock',
      market: 'XLON',
      reference_price: '-1',
      tradable: 'yes',
    });
    expect(result).toEqual({
      problems: [
        'class: must be one of equity, etf, bond, bill, note, mutual_fund, derivative, cryptocurrency, commodity, real_estate, cash',
        "market: unknown market 'XLON'",
        'tradable: must be true or false',
        'reference_price: must be a positive decimal number',
      ],
    });
  });

  it('requires bond attributes for bonds and refuses them elsewhere', () => {
    expect(readAssetRecord({ ...equity, class: 'note' })).toEqual({
      problems: ['bond: required for class note'],
    });
    expect(readAssetRecord({ ...equity, bond: { cusip: '037833100' } })).toEqual({
      problems: ['bond: only bonds, bills and notes carry bond attributes'],
    });
  });

  it('holds treasuries to T+1 and corporates to T+2 (spec, Bond attributes)', () => {
    const bonds = JSON.parse(readFileSync(join(__dirname, '..', 'data', 'bonds.json'), 'utf8')) as Array<{
      bond: Record<string, unknown>;
    }>;
    const corporate = bonds.find((b) => b.bond.bond_type === 'corporate')!;
    const treasury = bonds.find((b) => b.bond.bond_type === 'treasury')!;
    expect(readAssetRecord(corporate)).toHaveProperty('row.bond.settlement_period', 2);
    expect(readAssetRecord(treasury)).toHaveProperty('row.bond.settlement_period', 1);
    expect(readAssetRecord({ ...corporate, bond: { ...corporate.bond, settlement_period: 1 } })).toEqual({
      problems: ['bond.settlement_period: a corporate bond settles T+2, so it must be 2'],
    });
    expect(readAssetRecord({ ...treasury, bond: { ...treasury.bond, settlement_period: 2 } })).toEqual({
      problems: ['bond.settlement_period: a treasury bond settles T+1, so it must be 1'],
    });
  });
});
