import { SendLimiter } from 'src/modules/webhooks/delivery/send-limiter';

describe('SendLimiter', () => {
  it('grants up to the limit at once, then hands each released slot to the longest waiter', async () => {
    const limiter = new SendLimiter(2);
    const first = await limiter.acquire(1000);
    const second = await limiter.acquire(1000);
    const order: string[] = [];
    const third = limiter.acquire(1000).then((release) => (order.push('third'), release));
    const fourth = limiter.acquire(1000).then((release) => (order.push('fourth'), release));
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual([]);
    first!();
    first!(); // a second release of the same slot frees nothing more
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(['third']);
    second!();
    expect(await fourth).toEqual(expect.any(Function));
    expect(order).toEqual(['third', 'fourth']);
    expect(await third).toEqual(expect.any(Function));
  });

  it('gives up after the longest wait allowed, and the slot goes to the next waiter instead', async () => {
    const limiter = new SendLimiter(1);
    const held = await limiter.acquire(1000);
    const started = Date.now();
    expect(await limiter.acquire(30)).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    const next = limiter.acquire(1000);
    held!();
    expect(await next).toEqual(expect.any(Function));
  });

  it('gives each waiter up at its own deadline, whatever order they came in', async () => {
    const limiter = new SendLimiter(1);
    const held = await limiter.acquire(1000);
    const settled: string[] = [];
    const waiting = (name: string, ms: number) =>
      limiter.acquire(ms).then((release) => (settled.push(`${name}:${release ? 'slot' : 'none'}`), release));
    const long = waiting('long', 400);
    const short = waiting('short', 20);
    const shorter = waiting('shorter', 5);
    expect(await shorter).toBeNull();
    expect(await short).toBeNull();
    expect(settled).toEqual(['shorter:none', 'short:none']);
    held!();
    const slot = await long;
    expect(slot).toEqual(expect.any(Function));
    expect(settled).toEqual(['shorter:none', 'short:none', 'long:slot']);
    slot!();
    expect(await limiter.acquire(0)).toEqual(expect.any(Function)); // the slot came back
  });
});
