import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api, ApiFailure, KeyPair } from '../api';

/** Asks for a key pair and checks it with one tenant-level call before keeping it. */
export function SignIn(props: { onSignedIn(pair: KeyPair): void }): JSX.Element {
  const [publicKey, setPublicKey] = useState('');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: Event): Promise<void> {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const pair = { publicKey: publicKey.trim(), secret: secret.trim() };
    try {
      await api(pair, 'GET', '/v1/request-logs?limit=1');
      props.onSignedIn(pair);
    } catch (err) {
      setError(
        err instanceof ApiFailure && err.status === 401
          ? 'That key pair was not accepted. Use a tenant key pair (pk_test_… or pk_live_… and its secret).'
          : err instanceof ApiFailure && err.status === 403
            ? 'This key is scoped to one investor; the dashboard needs a tenant key pair.'
            : (err as Error).message,
      );
    } finally {
      setBusy(false);
      setSecret('');
    }
  }

  return (
    <main class="sign-in">
      <h1>Investment API dashboard</h1>
      <p>
        Sign in with an API key pair. It is kept in this tab only (session storage) and forgotten when you
        sign out or close the tab.
      </p>
      <form method="post" action="#" onSubmit={(e) => void submit(e)} autocomplete="off">
        <label>
          Public key
          <input
            name="public_key"
            value={publicKey}
            onInput={(e) => setPublicKey(e.currentTarget.value)}
            placeholder="pk_test_…"
            required
            spellcheck={false}
          />
        </label>
        <label>
          Secret
          <input
            name="secret"
            type="password"
            value={secret}
            onInput={(e) => setSecret(e.currentTarget.value)}
            required
            autocomplete="off"
          />
        </label>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
    </main>
  );
}
