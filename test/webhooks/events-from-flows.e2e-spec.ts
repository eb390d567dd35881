import { basic, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { fundedAccount, fundingBody } from '../wallet/support/wallet';
import { matchesEventFilter } from './support/webhooks';

/**
 * GET /v1/events over a history made by real flows through the API (investor, KYC, deposit,
 * settlement, withdrawal), so it runs against a deployed sandbox as well as in process. The
 * seeded-history cases at fixed times are in events.e2e-spec.ts.
 */
describe('GET /v1/events over events made through the API', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  let all: Listed[];
  beforeAll(() => withdrawAndList());

  it('lists the flow’s events newest first, test mode only', async () => {
    const names = all.map((e) => e.event);
    for (const name of [
      'account.created',
      'transfer.deposit.initiated',
      'transfer.deposit.completed',
      'transfer.withdrawal.initiated',
    ]) {
      expect(names).toContain(name);
    }
    const times = all.map((e) => Date.parse(e.timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(all.every((e) => e.livemode === false)).toBe(true);
    const live = await get('/v1/events', tenant.live);
    expect(live.status).toBe(200);
    expect(live.body.data).toEqual([]);
  });

  it.each(['transfer.*', 'transfer.deposit.*', 'account.*', 'account.created', 'order.*', '*'])(
    'event=%s returns exactly the matching events, in the same order',
    async (filter) => {
      const res = await get(`/v1/events?limit=100&event=${encodeURIComponent(filter)}`);
      expect(res.status).toBe(200);
      expect(ids(res.body.data)).toEqual(ids(all.filter((e) => matchesEventFilter(filter, e.event))));
    },
  );

  it('pages through the same list with limit, starting_after and ending_before', async () => {
    const walked: Listed[] = [];
    let after: string | undefined;
    for (let page = 0; page < 50; page += 1) {
      const res = await get(`/v1/events?limit=2${after ? `&starting_after=${after}` : ''}`);
      walked.push(...res.body.data);
      if (!res.body.has_more) {
        break;
      }
      after = res.body.data[res.body.data.length - 1].id;
    }
    expect(ids(walked)).toEqual(ids(all));
    const back = await get(`/v1/events?limit=2&ending_before=${all[3].id}`);
    expect(ids(back.body.data)).toEqual(ids(all.slice(1, 3)));
  });

  it('created[gte] and created[lt] split the list at a second', async () => {
    const oldest = Math.floor(Date.parse(all[all.length - 1].timestamp) / 1000);
    const from = await get(`/v1/events?limit=100&created[gte]=${oldest}`);
    expect(ids(from.body.data)).toEqual(ids(all));
    const before = await get(`/v1/events?limit=100&created[lt]=${oldest}`);
    expect(before.body.data).toEqual([]);
    const later = await get(`/v1/events?limit=100&created[gt]=${oldest + 3600}`);
    expect(later.body.data).toEqual([]);
  });

  it('GET /v1/events/{id} answers one of them; other tenants and the live key get 404', async () => {
    const one = await get(`/v1/events/${all[0].id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(all[0]);
    const other = await ctx.createTenant();
    expectSvcError(await get(`/v1/events/${all[0].id}`, other.test), 'SVC-404-001');
    expectSvcError(await get(`/v1/events/${all[0].id}`, tenant.live), 'SVC-404-001');
    expectSvcError(await get(`/v1/events?starting_after=${all[0].id}`, other.test), 'SVC-400-001', {
      param: 'starting_after',
    });
  });

  /** A funded investor withdraws; the tenant's events as then listed. */
  async function withdrawAndList(): Promise<void> {
    const { investor, bank } = await fundedAccount(ctx, tenant.test, '100.00');
    const withdrawal = await ctx
      .as(tenant.test)
      .post(`/v1/wallet/accounts/${investor.account_id}/withdrawals`, fundingBody(bank.id, '10.00'));
    expect(withdrawal.status).toBeLessThan(300);
    const res = await get('/v1/events?limit=100');
    expect(res.status).toBe(200);
    all = res.body.data;
  }

  const get = (path: string, creds = tenant.test) => ctx.http().get(path).set('Authorization', basic(creds));
  const ids = (list: Listed[]) => list.map((e) => e.id);
});

interface Listed {
  id: string;
  event: string;
  timestamp: string;
  livemode: boolean;
}
