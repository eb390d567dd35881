/**
 * V8's own functions for the probes, which run under `--allow-natives-syntax` (runNativesProbe in
 * test/support/ts-process.ts). Made with `new Function` so the TypeScript around them still parses.
 */
export const sameHiddenClass = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (
  a: object,
  b: object,
) => boolean;

export const prepareForOptimization = new Function('f', '%PrepareFunctionForOptimization(f)') as (
  f: (...args: never[]) => unknown,
) => void;

export const optimizeOnNextCall = new Function('f', '%OptimizeFunctionOnNextCall(f)') as (
  f: (...args: never[]) => unknown,
) => void;
