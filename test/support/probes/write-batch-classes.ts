import { WriteBatch, type BatchedWrite } from 'src/core/database/write-batch';
import { optimizeOnNextCall, prepareForOptimization, sameHiddenClass } from 'test/support/probes/natives';

/**
 * Run with `--allow-natives-syntax` (src/core/database/write-batch.spec.ts): adds statements to
 * many batches until V8 has optimized `WriteBatch.add`, then prints, as one JSON line, whether the
 * parts of two later batches share a V8 hidden class, and whether copies made by an optimized
 * object spread of the same shape (`{ ...write, name }`, what `add` once did) share one.
 */
function write(n: number): BatchedWrite {
  return {
    sql: 'INSERT INTO t (id) VALUES ($1) RETURNING id',
    params: [n],
    changes: { table: 't', key: String(n) },
    check: (rows) => {
      if (rows !== 1) {
        throw new Error(`row ${n} not written`);
      }
    },
  };
}

function spreadCopy(statement: BatchedWrite, name: string): BatchedWrite & { name: string } {
  return { ...statement, name };
}

function partsOf(batch: WriteBatch): object[] {
  return (batch as unknown as { parts: object[] }).parts;
}

/** Runs `make` until optimized, then returns two results made by the optimized code. */
function twoOptimized<T>(fn: (...args: never[]) => unknown, make: (n: number) => T): [T, T] {
  prepareForOptimization(fn);
  for (let n = 0; n < 20_000; n++) {
    make(n);
  }
  optimizeOnNextCall(fn);
  return [make(1), make(2)];
}

const [first, second] = twoOptimized(WriteBatch.prototype.add, (n) => {
  const batch = new WriteBatch();
  batch.add(write(2 * n));
  batch.add(write(2 * n + 1));
  return partsOf(batch);
});
const [firstCopy, secondCopy] = twoOptimized(spreadCopy, (n) => spreadCopy(write(n), 'batched_0'));
process.stdout.write(
  `${JSON.stringify({
    parts: sameHiddenClass(first[0], second[0]) && sameHiddenClass(first[1], second[1]),
    spreadCopies: sameHiddenClass(firstCopy, secondCopy),
  })}\n`,
);
