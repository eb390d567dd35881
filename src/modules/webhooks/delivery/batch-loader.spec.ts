import { BatchLoader } from 'src/modules/webhooks/delivery/batch-loader';

describe('BatchLoader', () => {
  it('serves the loads of one tick with one fetch, each key once', async () => {
    const calls: string[][] = [];
    const loader = new BatchLoader<string>((ids) => {
      calls.push(ids);
      return Promise.resolve(
        new Map(ids.filter((id) => id !== 'missing').map((id) => [id, id.toUpperCase()])),
      );
    });
    const results = await Promise.all([
      loader.load('a'),
      loader.load('b'),
      loader.load('a'),
      loader.load('missing'),
    ]);
    expect(results).toEqual(['A', 'B', 'A', undefined]);
    expect(calls).toEqual([['a', 'b', 'missing']]);
    expect(await loader.load('c')).toBe('C');
    expect(calls).toHaveLength(2);
  });

  it('a failed fetch fails every load of its batch', async () => {
    const loader = new BatchLoader<string>(() => Promise.reject(new Error('database down')));
    await expect(Promise.all([loader.load('a'), loader.load('b')])).rejects.toThrow('database down');
  });
});
