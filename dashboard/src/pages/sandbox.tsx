import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api, ApiFailure, KeyPair } from '../api';
import { ErrorNote, useLoad } from '../load';

interface TestClock {
  frozen_time: string | null;
  now: string;
}

/** One form row that calls a test helper and reports what came back. */
function useAction(): {
  note: string | null;
  failure: ApiFailure | Error | null;
  run(fn: () => Promise<string>): Promise<void>;
} {
  const [note, setNote] = useState<string | null>(null);
  const [failure, setFailure] = useState<ApiFailure | Error | null>(null);
  return {
    note,
    failure,
    async run(fn) {
      setNote(null);
      setFailure(null);
      try {
        setNote(await fn());
      } catch (err) {
        setFailure(err as Error);
      }
    },
  };
}

function Outcome(props: { action: ReturnType<typeof useAction> }): JSX.Element {
  return (
    <>
      {props.action.note ? (
        <p class="note" role="status">
          {props.action.note}
        </p>
      ) : null}
      <ErrorNote error={props.action.failure} />
    </>
  );
}

/** Test-mode controls: the tenant's test clock, prices, KYC and transfer outcomes. */
export function Sandbox(props: { pair: KeyPair }): JSX.Element {
  const clock = useLoad('clock', () => api<TestClock>(props.pair, 'GET', '/v1/test_helpers/clock'));
  const [advance, setAdvance] = useState('3600');
  const [symbol, setSymbol] = useState('AAPL');
  const [price, setPrice] = useState('190.00');
  const [investor, setInvestor] = useState('');
  const [transaction, setTransaction] = useState('');
  const clockAction = useAction();
  const priceAction = useAction();
  const kycAction = useAction();
  const transferAction = useAction();

  const moveClock = (body: object) =>
    clockAction.run(async () => {
      const c = await api<TestClock>(props.pair, 'POST', '/v1/test_helpers/clock', body);
      clock.reload();
      return `Test clock now ${c.now}${c.frozen_time ? ' (frozen)' : ' (real time)'}.`;
    });

  return (
    <section>
      <h2>Sandbox controls</h2>
      <article class="card">
        <h3>Test clock</h3>
        <ErrorNote error={clock.error} />
        <p data-testid="clock-now">
          {clock.data
            ? `Now ${clock.data.now}${clock.data.frozen_time ? ' (frozen)' : ' (follows real time)'}`
            : ''}
        </p>
        <form
          class="filters"
          onSubmit={(e) => (e.preventDefault(), void moveClock({ advance_seconds: Number(advance) }))}
        >
          <label>
            Advance by (seconds)
            <input
              name="advance_seconds"
              type="number"
              min={1}
              value={advance}
              onInput={(e) => setAdvance(e.currentTarget.value)}
            />
          </label>
          <button type="submit" data-testid="advance-clock">
            Advance clock
          </button>
          <button type="button" onClick={() => void moveClock({ frozen_time: null })}>
            Back to real time
          </button>
        </form>
        <Outcome action={clockAction} />
      </article>
      <article class="card">
        <h3>Prices</h3>
        <form
          class="filters"
          onSubmit={(e) => (
            e.preventDefault(),
            void priceAction.run(async () => {
              await api(props.pair, 'POST', '/v1/test_helpers/prices', {
                symbol: symbol.trim(),
                price: price.trim(),
              });
              return `${symbol.trim()} now holds ${price.trim()}.`;
            })
          )}
        >
          <label>
            Symbol
            <input value={symbol} maxLength={64} onInput={(e) => setSymbol(e.currentTarget.value)} />
          </label>
          <label>
            Price
            <input value={price} maxLength={32} onInput={(e) => setPrice(e.currentTarget.value)} />
          </label>
          <button type="submit">Set price</button>
        </form>
        <Outcome action={priceAction} />
      </article>
      <article class="card">
        <h3>KYC outcome</h3>
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          <label>
            Investor
            <input
              value={investor}
              maxLength={64}
              placeholder="inv_…"
              onInput={(e) => setInvestor(e.currentTarget.value)}
            />
          </label>
          {(['approve', 'reject'] as const).map((outcome) => (
            <button
              type="button"
              onClick={() =>
                void kycAction.run(async () => {
                  const id = encodeURIComponent(investor.trim());
                  await api(props.pair, 'POST', `/v1/test_helpers/investors/${id}/kyc/${outcome}`);
                  return `KYC of ${investor.trim()}: ${outcome === 'approve' ? 'approved' : 'rejected'}.`;
                })
              }
            >
              {outcome === 'approve' ? 'Approve' : 'Reject'}
            </button>
          ))}
        </form>
        <Outcome action={kycAction} />
      </article>
      <article class="card">
        <h3>Transfer outcome</h3>
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          <label>
            Wallet transaction
            <input
              value={transaction}
              maxLength={64}
              placeholder="txn_…"
              onInput={(e) => setTransaction(e.currentTarget.value)}
            />
          </label>
          {(['settle', 'fail'] as const).map((outcome) => (
            <button
              type="button"
              onClick={() =>
                void transferAction.run(async () => {
                  const id = encodeURIComponent(transaction.trim());
                  await api(
                    props.pair,
                    'POST',
                    `/v1/test_helpers/wallet/transactions/${id}/${outcome}`,
                    outcome === 'fail' ? {} : undefined,
                  );
                  return `${transaction.trim()}: ${outcome === 'settle' ? 'settled' : 'failed'}.`;
                })
              }
            >
              {outcome === 'settle' ? 'Settle' : 'Fail'}
            </button>
          ))}
        </form>
        <Outcome action={transferAction} />
      </article>
    </section>
  );
}
