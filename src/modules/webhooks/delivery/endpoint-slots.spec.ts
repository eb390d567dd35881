import { EndpointSlots } from 'src/modules/webhooks/delivery/endpoint-slots';

describe('EndpointSlots', () => {
  it('lets up to the limit run at once per endpoint, others independently', async () => {
    const slots = new EndpointSlots(2, 10_000);
    const a1 = await slots.take('a');
    const a2 = await slots.take('a');
    const b1 = await slots.take('b');
    expect([a1.go, a2.go, b1.go]).toEqual([true, true, true]);
    let third: boolean | undefined;
    const pending = slots.take('a').then((d) => {
      third = d.go;
      return d;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(third).toBeUndefined();
    if (a1.go) {
      a1.release();
    }
    expect((await pending).go).toBe(true);
  });

  it('puts a delivery back when the endpoint is slow to answer', async () => {
    const slots = new EndpointSlots(1, 30);
    const first = await slots.take('slow');
    expect(first.go).toBe(true);
    const started = Date.now();
    const second = await slots.take('slow');
    expect(second.go).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect((await slots.take('other')).go).toBe(true);
  });
});
