import { runNativesProbe } from 'test/support/ts-process';

describe('WriteBatch', () => {
  it('gives the parts of every batch one shared V8 hidden class, also once add() is optimized', async () => {
    const { parts } = await probe();
    expect(parts).toBe(true);
  }, 60_000);

  it('is needed: an optimized object spread gives each copy a hidden class of its own', async () => {
    // Should V8 stop doing this, add() may spread again (src/core/database/write-batch.ts).
    const { spreadCopies } = await probe();
    expect(spreadCopies).toBe(false);
  }, 60_000);
});

/** The report of test/support/probes/write-batch-classes.ts. */
interface Probe {
  parts: boolean;
  spreadCopies: boolean;
}

function probe(): Promise<Probe> {
  return runNativesProbe<Probe>('test/support/probes/write-batch-classes.ts');
}
