import { render } from 'preact';
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { forgetKeyPair, isTestKey, KeyPair, loadKeyPair, saveKeyPair } from './api';
import { EventDetail, Events } from './pages/events';
import { InvestorDetail, Investors } from './pages/investors';
import { RequestLogDetail, RequestLogs } from './pages/request-logs';
import { Sandbox } from './pages/sandbox';
import { SignIn } from './pages/sign-in';
import { Webhooks } from './pages/webhooks';
import { Link, navigate, usePath } from './router';
import './style.css';

function Page(props: { pair: KeyPair; path: string }): JSX.Element {
  const { pair, path } = props;
  const [, section, id] = path.split('/');
  switch (section) {
    case 'logs':
      return id ? <RequestLogDetail pair={pair} id={decodeURIComponent(id)} /> : <RequestLogs pair={pair} />;
    case 'events':
      return id ? <EventDetail pair={pair} id={decodeURIComponent(id)} /> : <Events pair={pair} />;
    case 'webhooks':
      return <Webhooks pair={pair} />;
    case 'investors':
      return id ? <InvestorDetail pair={pair} id={decodeURIComponent(id)} /> : <Investors pair={pair} />;
    case 'sandbox':
      return isTestKey(pair) ? <Sandbox pair={pair} /> : <p>Sandbox controls exist in test mode only.</p>;
    default:
      return <RequestLogs pair={pair} />;
  }
}

function App(): JSX.Element {
  const [pair, setPair] = useState<KeyPair | null>(loadKeyPair());
  const path = usePath();
  if (!pair) {
    // The requested page (a request_log_url, say) stays in the address bar and opens after sign-in.
    return (
      <SignIn
        onSignedIn={(p) => {
          saveKeyPair(p);
          setPair(p);
        }}
      />
    );
  }
  const test = isTestKey(pair);
  return (
    <div class={test ? 'shell test-mode' : 'shell'}>
      <header>
        <strong>Investment API</strong>
        <span class={test ? 'mode test' : 'mode live'} data-testid="mode">
          {test ? 'Test mode' : 'Live mode'}
        </span>
        <nav>
          <Link to="/logs">Request log</Link>
          <Link to="/events">Events</Link>
          <Link to="/webhooks">Webhooks</Link>
          <Link to="/investors">Investors</Link>
          {test ? <Link to="/sandbox">Sandbox</Link> : null}
        </nav>
        <span class="mono key">{pair.publicKey.slice(0, 16)}…</span>
        <button
          type="button"
          data-testid="sign-out"
          onClick={() => {
            forgetKeyPair();
            setPair(null);
            navigate('/');
          }}
        >
          Sign out
        </button>
      </header>
      <main>
        <Page pair={pair} path={path} key={`${pair.publicKey}${path}`} />
      </main>
    </div>
  );
}

render(<App />, document.getElementById('app')!);
