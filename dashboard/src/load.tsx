import type { JSX } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiFailure } from './api';

export interface Loaded<T> {
  data: T | null;
  error: ApiFailure | Error | null;
  reload(): void;
}

/** Runs `load` when `key` changes (and on reload()); keeps the last result and error. */
export function useLoad<T>(key: string, load: () => Promise<T>): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<ApiFailure | Error | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setError(null);
    load().then(
      (d) => live && setData(d),
      (e: Error) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [key, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, reload };
}

/** An API error as text: code, message, the field at fault and the request it came from. */
export function ErrorNote(props: { error: ApiFailure | Error | null }): JSX.Element | null {
  const e = props.error;
  if (!e) {
    return null;
  }
  if (e instanceof ApiFailure) {
    return (
      <p class="error" role="alert">
        {e.error.code ?? e.status} {e.error.message}
        {e.error.param ? ` (param ${e.error.param})` : ''}
        {e.requestId ? ` · request ${e.requestId}` : ''}
      </p>
    );
  }
  return (
    <p class="error" role="alert">
      {e.message}
    </p>
  );
}
