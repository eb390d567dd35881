import type { JSX } from 'preact';
import { api, download, KeyPair, List, when } from '../api';
import { ErrorNote, useLoad } from '../load';

interface Activity {
  id: string;
  activity_type: string;
  date: string;
  currency: string;
  net_amount: string;
  symbol: string | null;
  qty: string | null;
  description: string | null;
}

interface GeneratedDocument {
  id: string;
  created: number;
  type: string;
  file_name: string;
}

/** An account's latest activities, and its confirmations and statements with a download each. */
export function InvestorRecords(props: {
  pair: KeyPair;
  investorId: string;
  accountId: string;
}): JSX.Element {
  const records = useLoad(props.accountId, async () => {
    const activities = await api<Activity[]>(
      props.pair,
      'GET',
      `/v1/trading/accounts/${props.accountId}/activities?page_size=25`,
    );
    const docs = async (type: string) =>
      (
        await api<List<GeneratedDocument>>(
          props.pair,
          'GET',
          `/v1/investors/${encodeURIComponent(props.investorId)}/documents?type=${type}&limit=24`,
        )
      ).data;
    return {
      activities,
      documents: [...(await docs('account_statement')), ...(await docs('trade_confirmation'))],
    };
  });
  const r = records.data;
  return (
    <>
      <ErrorNote error={records.error} />
      <h3>Activities</h3>
      <table data-testid="activities">
        <thead>
          <tr>
            <th>Date</th>
            <th>Type</th>
            <th>Symbol</th>
            <th>Qty</th>
            <th>Net amount</th>
            <th>Id</th>
          </tr>
        </thead>
        <tbody>
          {(r?.activities ?? []).map((a) => (
            <tr>
              <td>{a.date}</td>
              <td>{a.activity_type}</td>
              <td>{a.symbol ?? ''}</td>
              <td>{a.qty ?? ''}</td>
              <td>
                {a.net_amount} {a.currency}
              </td>
              <td class="mono">{a.id}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Confirmations and statements</h3>
      <table data-testid="statements">
        <thead>
          <tr>
            <th>Made (UTC)</th>
            <th>Type</th>
            <th>File</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(r?.documents ?? []).map((d) => (
            <tr>
              <td>{when(d.created)}</td>
              <td>{d.type}</td>
              <td class="mono">{d.file_name}</td>
              <td>
                <button
                  type="button"
                  onClick={() =>
                    void download(
                      props.pair,
                      `/v1/investors/${encodeURIComponent(props.investorId)}/documents/${d.id}/download`,
                      d.file_name,
                    )
                  }
                >
                  Download {d.file_name}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
