import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api, KeyPair, List, query, when } from '../api';
import { ErrorNote, useLoad } from '../load';
import { Link } from '../router';

interface RequestLog {
  id: string;
  created: number;
  created_at: string;
  livemode: boolean;
  method: string;
  path: string;
  query: Record<string, string> | null;
  status: number;
  duration_ms: number;
  api_key_id: string | null;
  investor_id: string | null;
  error_code: string | null;
  error: { code?: string; message?: string; param?: string; doc_url?: string; type?: string } | null;
  idempotency_key: string | null;
  idempotent_replayed: boolean;
  legacy: boolean;
}

export function RequestLogs(props: { pair: KeyPair }): JSX.Element {
  const [outcome, setOutcome] = useState('');
  const [method, setMethod] = useState('');
  const [path, setPath] = useState('');
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const q = query({ limit: 25, outcome, method, path, starting_after: cursor });
  const logs = useLoad(q, () => api<List<RequestLog>>(props.pair, 'GET', `/v1/request-logs${q}`));
  return (
    <section>
      <h2>Request log</h2>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Outcome
          <select value={outcome} onChange={(e) => (setCursor(undefined), setOutcome(e.currentTarget.value))}>
            <option value="">all</option>
            <option value="failed">failed</option>
            <option value="success">succeeded</option>
          </select>
        </label>
        <label>
          Method
          <select value={method} onChange={(e) => (setCursor(undefined), setMethod(e.currentTarget.value))}>
            <option value="">all</option>
            {['GET', 'POST', 'PATCH', 'DELETE'].map((m) => (
              <option value={m}>{m}</option>
            ))}
          </select>
        </label>
        <label>
          Path starts with
          <input
            value={path}
            maxLength={512}
            placeholder="/v1/investors"
            onChange={(e) => (setCursor(undefined), setPath(e.currentTarget.value))}
          />
        </label>
        <button type="button" onClick={() => logs.reload()}>
          Refresh
        </button>
      </form>
      <ErrorNote error={logs.error} />
      <table>
        <thead>
          <tr>
            <th>Time (UTC)</th>
            <th>Status</th>
            <th>Method</th>
            <th>Path</th>
            <th>Error</th>
            <th>Request</th>
          </tr>
        </thead>
        <tbody>
          {(logs.data?.data ?? []).map((l) => (
            <tr class={l.status >= 400 ? 'failed' : ''}>
              <td>{when(l.created)}</td>
              <td>{l.status}</td>
              <td>{l.method}</td>
              <td class="mono">{l.path}</td>
              <td>{l.error_code ?? ''}</td>
              <td>
                <Link to={`/logs/${l.id}`} class="mono">
                  {l.id}
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {logs.data?.has_more ? (
        <button type="button" onClick={() => setCursor(logs.data!.data[logs.data!.data.length - 1].id)}>
          Older
        </button>
      ) : null}
    </section>
  );
}

/** What the partner should change, from the error's field and message. */
function advice(log: RequestLog): string {
  const e = log.error;
  if (!e) {
    return '';
  }
  if (log.status === 401) {
    return 'Send a valid key pair with HTTP Basic (public key as user, secret as password), or a valid Bearer token.';
  }
  if (log.status === 403) {
    return 'Use a key with access to this resource: tenant-level routes need a tenant key, not an investor-scoped one.';
  }
  if (log.status === 404) {
    return 'Check the id in the path and that it belongs to this mode (test keys see test objects only).';
  }
  if (log.status === 409 && log.idempotency_key) {
    return 'Wait for the request with this Idempotency-Key to finish, or use a new key for a different request.';
  }
  if (log.status === 429) {
    return 'Slow down: wait for the time given in Retry-After, then retry.';
  }
  if (log.status >= 500) {
    return 'Retry with the same Idempotency-Key; if it keeps failing, contact support with this request id.';
  }
  return e.param
    ? `Change the field "${e.param}" as the message says, then send the request again.`
    : 'Change the request as the message says, then send it again.';
}

export function RequestLogDetail(props: { pair: KeyPair; id: string }): JSX.Element {
  const log = useLoad(props.id, () =>
    api<RequestLog>(props.pair, 'GET', `/v1/request-logs/${encodeURIComponent(props.id)}`),
  );
  const l = log.data;
  return (
    <section>
      <p>
        <Link to="/logs">← Request log</Link>
      </p>
      <h2 class="mono">{props.id}</h2>
      <ErrorNote error={log.error} />
      {l ? (
        <div>
          <dl class="facts">
            <dt>Request</dt>
            <dd class="mono" data-testid="request-line">
              {l.method} {l.path}
            </dd>
            <dt>Status</dt>
            <dd data-testid="status">{l.status}</dd>
            <dt>Time (UTC)</dt>
            <dd>{l.created_at}</dd>
            <dt>Duration</dt>
            <dd>{l.duration_ms} ms</dd>
            <dt>Mode</dt>
            <dd>{l.livemode ? 'live' : 'test'}</dd>
            <dt>API key</dt>
            <dd class="mono">{l.api_key_id ?? '(token)'}</dd>
            {l.investor_id ? (
              <>
                <dt>Investor scope</dt>
                <dd class="mono">{l.investor_id}</dd>
              </>
            ) : null}
            {l.query ? (
              <>
                <dt>Query</dt>
                <dd class="mono">{JSON.stringify(l.query)}</dd>
              </>
            ) : null}
            {l.idempotency_key ? (
              <>
                <dt>Idempotency-Key</dt>
                <dd class="mono">
                  {l.idempotency_key}
                  {l.idempotent_replayed ? ' (stored response replayed)' : ''}
                </dd>
              </>
            ) : null}
            {l.legacy ? (
              <>
                <dt>Base path</dt>
                <dd>legacy</dd>
              </>
            ) : null}
          </dl>
          {l.error ? (
            <div class="error-box" data-testid="error">
              <h3>Error {l.error.code ?? l.error_code}</h3>
              <p data-testid="error-message">{l.error.message}</p>
              {l.error.param ? (
                <p>
                  Field: <span class="mono">{l.error.param}</span>
                </p>
              ) : null}
              <p data-testid="advice">What to change: {advice(l)}</p>
              {l.error.doc_url && /^https?:\/\//.test(l.error.doc_url) ? (
                <p>
                  <a href={l.error.doc_url} target="_blank" rel="noopener noreferrer" data-testid="doc-link">
                    Documentation of {l.error.code}
                  </a>
                </p>
              ) : null}
            </div>
          ) : (
            <p>Succeeded. Bodies of successful requests are not stored.</p>
          )}
        </div>
      ) : null}
    </section>
  );
}
