import type { JSX } from 'preact';
import { api, KeyPair, List, when } from '../api';
import { ErrorNote, useLoad } from '../load';
import { Attempt, AttemptsTable } from './events';

interface Endpoint {
  id: string;
  created: number;
  name: string;
  url: string;
  status: string;
  eventTypeNames: string[];
}

interface EndpointHealth extends Endpoint {
  attempts: Attempt[];
}

/** Failure rate over the endpoint's latest 100 attempts. */
function failureRate(attempts: Attempt[]): string {
  if (attempts.length === 0) {
    return 'no attempts yet';
  }
  const failed = attempts.filter((a) => !a.succeeded).length;
  return `${Math.round((failed / attempts.length) * 100)} % of the last ${attempts.length} attempts failed`;
}

export function Webhooks(props: { pair: KeyPair }): JSX.Element {
  const endpoints = useLoad('webhooks', async () => {
    const list = await api<List<Endpoint>>(props.pair, 'GET', '/v1/webhooks?limit=100');
    return Promise.all(
      list.data.map(async (e): Promise<EndpointHealth> => {
        const attempts = await api<List<Attempt>>(
          props.pair,
          'GET',
          `/v1/webhooks/${e.id}/attempts?limit=100`,
        );
        return { ...e, attempts: attempts.data };
      }),
    );
  });
  return (
    <section>
      <h2>Webhook endpoints</h2>
      <button type="button" onClick={() => endpoints.reload()}>
        Refresh
      </button>
      <ErrorNote error={endpoints.error} />
      {(endpoints.data ?? []).map((e) => (
        <article class="card">
          <h3>
            {e.name} <span class="mono">{e.id}</span>
          </h3>
          <p class="mono">{e.url}</p>
          <p>
            {e.status} · created {when(e.created)} · events {e.eventTypeNames.join(', ')}
          </p>
          <p data-testid="failure-rate">{failureRate(e.attempts)}</p>
          <details>
            <summary>Latest attempts</summary>
            <AttemptsTable attempts={e.attempts.slice(0, 20)} showEvent />
          </details>
        </article>
      ))}
      {endpoints.data?.length === 0 ? <p>No webhook endpoints in this mode.</p> : null}
    </section>
  );
}
