import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api, KeyPair, List, query, when } from '../api';
import { ErrorNote, useLoad } from '../load';
import { Link } from '../router';
import { InvestorRecords } from './investor-records';

interface Investor {
  id: string;
  created: number;
  status: string;
  account_id: string | null;
  account_number: string | null;
  kyc?: { status?: string } | null;
}

interface Account {
  id: string;
  account_number: string;
  status: string;
  currency: string;
  last_equity: string;
  created_at: string;
}

interface Balance {
  currency: string;
  cash?: string;
  available?: string;
}

export function Investors(props: { pair: KeyPair }): JSX.Element {
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const q = query({ limit: 25, starting_after: cursor });
  const investors = useLoad(q, () => api<List<Investor>>(props.pair, 'GET', `/v1/investors${q}`));
  return (
    <section>
      <h2>Investors</h2>
      <ErrorNote error={investors.error} />
      <table>
        <thead>
          <tr>
            <th>Created (UTC)</th>
            <th>Investor</th>
            <th>Status</th>
            <th>KYC</th>
            <th>Account</th>
          </tr>
        </thead>
        <tbody>
          {(investors.data?.data ?? []).map((i) => (
            <tr>
              <td>{when(i.created)}</td>
              <td>
                <Link to={`/investors/${i.id}`} class="mono">
                  {i.id}
                </Link>
              </td>
              <td>{i.status}</td>
              <td>{i.kyc?.status ?? ''}</td>
              <td class="mono">{i.account_number ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {investors.data?.has_more ? (
        <button
          type="button"
          onClick={() => setCursor(investors.data!.data[investors.data!.data.length - 1].id)}
        >
          Older
        </button>
      ) : null}
    </section>
  );
}

export function InvestorDetail(props: { pair: KeyPair; id: string }): JSX.Element {
  const details = useLoad(props.id, async () => {
    const investor = await api<Investor>(props.pair, 'GET', `/v1/investors/${encodeURIComponent(props.id)}`);
    const account = investor.account_id
      ? await api<Account>(props.pair, 'GET', `/v1/accounts/${investor.account_id}`)
      : null;
    const balances = investor.account_id
      ? await api<Balance[]>(props.pair, 'GET', `/v1/wallet/accounts/${investor.account_id}/balances`).catch(
          () => [],
        )
      : [];
    return { investor, account, balances };
  });
  const d = details.data;
  return (
    <section>
      <p>
        <Link to="/investors">← Investors</Link>
      </p>
      <h2 class="mono">{props.id}</h2>
      <ErrorNote error={details.error} />
      {d ? (
        <>
          <dl class="facts">
            <dt>Status</dt>
            <dd>{d.investor.status}</dd>
            <dt>KYC</dt>
            <dd>{d.investor.kyc?.status ?? ''}</dd>
            <dt>Created (UTC)</dt>
            <dd>{when(d.investor.created)}</dd>
          </dl>
          {d.account ? (
            <>
              <h3>Account</h3>
              <dl class="facts">
                <dt>Account</dt>
                <dd class="mono">
                  {d.account.account_number} ({d.account.id})
                </dd>
                <dt>Status</dt>
                <dd>{d.account.status}</dd>
                <dt>Equity</dt>
                <dd>
                  {d.account.last_equity} {d.account.currency}
                </dd>
                {d.balances.map((b) => (
                  <>
                    <dt>Cash {b.currency}</dt>
                    <dd>
                      {b.cash ?? ''} (available {b.available ?? ''})
                    </dd>
                  </>
                ))}
              </dl>
              <InvestorRecords pair={props.pair} investorId={d.investor.id} accountId={d.account.id} />
            </>
          ) : (
            <p>No account yet.</p>
          )}
        </>
      ) : null}
    </section>
  );
}
