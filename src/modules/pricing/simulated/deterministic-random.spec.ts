import {
  standardNormal,
  STREAM,
  streamKey,
  uniform,
} from 'src/modules/pricing/simulated/deterministic-random';

describe('deterministic random draws', () => {
  const key = streamKey('sandbox:asset-1');

  it('are a pure function of key, stream and position', () => {
    expect(uniform(key, STREAM.daily, 20_000, 0)).toBe(
      uniform(streamKey('sandbox:asset-1'), STREAM.daily, 20_000, 0),
    );
    expect(uniform(key, STREAM.daily, 20_000, 0)).not.toBe(uniform(key, STREAM.bridge, 20_000, 0));
    expect(uniform(key, STREAM.daily, 20_000, 0)).not.toBe(uniform(key, STREAM.daily, 20_001, 0));
    expect(uniform(key, STREAM.daily, 20_000, 0)).not.toBe(
      uniform(streamKey('sandbox:asset-2'), STREAM.daily, 20_000, 0),
    );
  });

  it('are uniform on [0, 1) and approximately standard normal', () => {
    const n = 50_000;
    let sum = 0;
    let sumSquares = 0;
    let min = 1;
    let max = 0;
    let normalSum = 0;
    let normalSquares = 0;
    for (let i = 0; i < n; i++) {
      const u = uniform(key, STREAM.volume, i, 7);
      min = Math.min(min, u);
      max = Math.max(max, u);
      sum += u;
      sumSquares += u * u;
      const z = standardNormal(key, STREAM.daily, i, 0);
      normalSum += z;
      normalSquares += z * z;
    }
    expect(min).toBeGreaterThanOrEqual(0);
    expect(max).toBeLessThan(1);
    expect(sum / n).toBeCloseTo(0.5, 2);
    expect(sumSquares / n - (sum / n) ** 2).toBeCloseTo(1 / 12, 2);
    expect(normalSum / n).toBeCloseTo(0, 1);
    expect(normalSquares / n).toBeCloseTo(1, 1);
  });
});
