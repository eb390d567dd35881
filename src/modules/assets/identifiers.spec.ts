import { isValidCusip, isValidIsin, listedAssetId, uuidV5 } from 'src/modules/assets/identifiers';

describe('asset identifiers', () => {
  it('makes RFC 4122 name-based (version 5) uuids', () => {
    // RFC 4122 DNS namespace; the uuid of www.example.com is the commonly published test vector.
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });

  it('gives a listed asset the same id whatever the case of market and symbol', () => {
    expect(listedAssetId('xnas', 'aapl')).toBe(listedAssetId('XNAS', 'AAPL'));
    expect(listedAssetId('XNAS', 'AAPL')).not.toBe(listedAssetId('XNYS', 'AAPL'));
    expect(listedAssetId('XNAS', 'AAPL')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('checks CUSIP and ISIN check digits', () => {
    expect(isValidCusip('037833100')).toBe(true); // Apple Inc. common stock
    expect(isValidCusip('91282CLW9')).toBe(true); // US Treasury 4.25% note due 2034-11-15
    expect(isValidCusip('037833101')).toBe(false);
    expect(isValidCusip('91282clw9')).toBe(false);
    expect(isValidIsin('US0378331005')).toBe(true);
    expect(isValidIsin('NGDANGCEM008')).toBe(true); // Dangote Cement on NGX
    expect(isValidIsin('US0378331006')).toBe(false);
    expect(isValidIsin('US037833100')).toBe(false);
  });
});
