import { runNativesProbe } from 'test/support/ts-process';

describe('ServiceExpressAdapter', () => {
  it('gives concurrent requests, and responses, one shared V8 hidden class', async () => {
    const { pairs } = await probe('service');
    expect(pairs).toEqual(Array(4).fill({ requests: true, responses: true }));
  }, 60_000);

  it('answers as Express does: its prototypes, headers, path parameters, query and res.json', async () => {
    const { features, answered } = await probe('service');
    expect(features).toEqual({ prototypes: true, host: true, params: '5', query: 'x' });
    expect(answered).toEqual({ status: 201, type: 'application/json; charset=utf-8' });
  }, 60_000);

  it('is needed: through Nest’s own adapter each request gets a hidden class of its own', async () => {
    // Should V8 or Express stop doing this, the adapter may go (src/core/http/service-express-adapter.ts).
    const { pairs, features } = await probe('nest');
    expect(pairs.some((p) => p.requests || p.responses)).toBe(false);
    expect(features.prototypes).toBe(true);
  }, 60_000);
});

/** The probe's report (test/support/probes/hidden-classes.ts). */
interface Probe {
  pairs: Array<{ requests: boolean; responses: boolean }>;
  features: { prototypes: boolean; host: boolean; params: string; query: string };
  answered: { status: number; type: string };
}

function probe(adapter: 'nest' | 'service'): Promise<Probe> {
  return runNativesProbe<Probe>('test/support/probes/hidden-classes.ts', { PROBE_ADAPTER: adapter });
}
