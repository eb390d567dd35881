import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api, ApiFailure, KeyPair, List, query, when } from '../api';
import { ErrorNote, useLoad } from '../load';
import { Link } from '../router';

interface EventRecord {
  id: string;
  event: string;
  timestamp: string;
  livemode: boolean;
  data: unknown;
}

export interface Attempt {
  id: string;
  created: number;
  attempted_at: string;
  event_id: string;
  webhook_id: string;
  url: string;
  run: number;
  attempt: number;
  succeeded: boolean;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  next_retry_at: string | null;
}

export function Events(props: { pair: KeyPair }): JSX.Element {
  const [type, setType] = useState('');
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const q = query({ limit: 25, event: type, starting_after: cursor });
  const events = useLoad(q, () => api<List<EventRecord>>(props.pair, 'GET', `/v1/events${q}`));
  return (
    <section>
      <h2>Events</h2>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Event type
          <input
            value={type}
            maxLength={100}
            placeholder="transfer.*"
            onChange={(e) => (setCursor(undefined), setType(e.currentTarget.value))}
          />
        </label>
        <button type="button" onClick={() => events.reload()}>
          Refresh
        </button>
      </form>
      <ErrorNote error={events.error} />
      <table>
        <thead>
          <tr>
            <th>Time (UTC)</th>
            <th>Type</th>
            <th>Event</th>
          </tr>
        </thead>
        <tbody>
          {(events.data?.data ?? []).map((e) => (
            <tr>
              <td>{e.timestamp.replace('T', ' ').slice(0, 19)}</td>
              <td>{e.event}</td>
              <td>
                <Link to={`/events/${e.id}`} class="mono">
                  {e.id}
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {events.data?.has_more ? (
        <button type="button" onClick={() => setCursor(events.data!.data[events.data!.data.length - 1].id)}>
          Older
        </button>
      ) : null}
    </section>
  );
}

export function AttemptsTable(props: { attempts: Attempt[]; showEvent?: boolean }): JSX.Element {
  return (
    <table data-testid="attempts">
      <thead>
        <tr>
          <th>Time (UTC)</th>
          {props.showEvent ? <th>Event</th> : <th>Endpoint</th>}
          <th>Url</th>
          <th>Run / try</th>
          <th>Result</th>
          <th>Duration</th>
          <th>Next retry</th>
        </tr>
      </thead>
      <tbody>
        {props.attempts.map((a) => (
          <tr class={a.succeeded ? '' : 'failed'}>
            <td>{when(a.created)}</td>
            <td class="mono">
              {props.showEvent ? <Link to={`/events/${a.event_id}`}>{a.event_id}</Link> : a.webhook_id}
            </td>
            <td class="mono">{a.url}</td>
            <td>
              {a.run} / {a.attempt}
            </td>
            <td>
              {a.status_code !== null ? `HTTP ${a.status_code}` : `network error: ${a.error ?? 'unknown'}`}
            </td>
            <td>{a.duration_ms} ms</td>
            <td>{a.next_retry_at ? a.next_retry_at.replace('T', ' ').slice(0, 19) : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function EventDetail(props: { pair: KeyPair; id: string }): JSX.Element {
  const id = encodeURIComponent(props.id);
  const event = useLoad(props.id, () => api<EventRecord>(props.pair, 'GET', `/v1/events/${id}`));
  const attempts = useLoad(props.id, () =>
    api<List<Attempt>>(props.pair, 'GET', `/v1/events/${id}/attempts?limit=100`),
  );
  const [endpoint, setEndpoint] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [failure, setFailure] = useState<ApiFailure | Error | null>(null);

  async function resend(): Promise<void> {
    setNote(null);
    setFailure(null);
    try {
      const res = await api<{ deliveries: Array<{ webhook_id: string; run: number }> }>(
        props.pair,
        'POST',
        `/v1/events/${id}/resend`,
        endpoint.trim() ? { endpoint: endpoint.trim() } : {},
      );
      setNote(
        res.deliveries.length === 0
          ? 'No enabled endpoint is subscribed to this event.'
          : `Resent to ${res.deliveries.map((d) => `${d.webhook_id} (run ${d.run})`).join(', ')}.`,
      );
      setTimeout(() => attempts.reload(), 1000);
    } catch (err) {
      setFailure(err as Error);
    }
  }

  return (
    <section>
      <p>
        <Link to="/events">← Events</Link>
      </p>
      <h2 class="mono">{props.id}</h2>
      <ErrorNote error={event.error} />
      {event.data ? (
        <>
          <p>
            {event.data.event} · {event.data.timestamp}
          </p>
          <pre class="payload">{JSON.stringify(event.data.data, null, 2)}</pre>
        </>
      ) : null}
      <h3>Deliveries</h3>
      <ErrorNote error={attempts.error} />
      <AttemptsTable attempts={attempts.data?.data ?? []} />
      <form class="filters" onSubmit={(e) => (e.preventDefault(), void resend())}>
        <label>
          Endpoint (optional)
          <input
            value={endpoint}
            maxLength={64}
            placeholder="we_… (all subscribed endpoints if empty)"
            onInput={(e) => setEndpoint(e.currentTarget.value)}
          />
        </label>
        <button type="submit" data-testid="resend">
          Resend
        </button>
        <button type="button" onClick={() => attempts.reload()}>
          Refresh
        </button>
      </form>
      {note ? (
        <p class="note" role="status">
          {note}
        </p>
      ) : null}
      <ErrorNote error={failure} />
    </section>
  );
}
