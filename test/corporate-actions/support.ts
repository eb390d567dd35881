import Decimal from 'decimal.js';
import { Webhook } from 'standardwebhooks';
import { isRemote, type TestContext, type TestCredentials } from '../support/app';
import { type Delivery, WebhookReceiver } from '../investors/receiver';

import { NO_LEDGER_DISCREPANCIES } from '../support/ledger-audit';

export const HOUR = 3600;
export const DAY = 24 * HOUR;
/** 04:00 New York on the ex date the specs announce (Wednesday 3 March 2049). */
export const EX_DATE_0400 = '2049-03-03T09:00:00.000Z';

/** A UK tax resident: dividends are withheld. */
export const GB_RESIDENT = {
  identity: { tax_id_type: 'GBR_NINO', tax_id: 'AB 12 34 56 C', country_of_tax_residence: 'GB' },
};

/** A cash amount as the ledger holds it: half-even to the cent. */
export const cents = (v: Decimal.Value) => new Decimal(v).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN);

/** Announces a corporate action for the tenant's test mode; anything but 201 throws. */
export async function announce(
  ctx: TestContext,
  creds: TestCredentials,
  body: Record<string, unknown>,
): Promise<Record<string, any>> {
  const res = await ctx.as(creds).post('/v1/test_helpers/corporate-actions', body);
  if (res.status !== 201) {
    throw new Error(`announce failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body;
}

/** Every entitlement of an action (tenant-level), walking the cursor pages. */
export async function entitlements(
  ctx: TestContext,
  creds: TestCredentials,
  actionId: string,
): Promise<Array<Record<string, any>>> {
  const rows: Array<Record<string, any>> = [];
  let after = '';
  for (;;) {
    const res = await ctx
      .as(creds)
      .get(
        `/v1/corporate-actions/${actionId}/entitlements?limit=100${after ? `&starting_after=${after}` : ''}`,
      );
    if (res.status !== 200) {
      throw new Error(`entitlements failed: ${res.status} ${JSON.stringify(res.body)}`);
    }
    rows.push(...res.body.data);
    if (!res.body.has_more) {
      return rows;
    }
    after = res.body.data[res.body.data.length - 1].account_id;
  }
}

/** The month's account statement of an investor (its JSON); the investor must have exactly one. */
export async function onlyStatement(
  ctx: TestContext,
  creds: TestCredentials,
  investorId: string,
): Promise<Record<string, any>> {
  const client = ctx.as(creds);
  const docs = await client.get(`/v1/investors/${investorId}/documents?type=account_statement`);
  expect(docs.body.data).toHaveLength(1);
  const statement = await client
    .get(`/v1/investors/${investorId}/documents/${docs.body.data[0].id}/download`)
    .set('Accept', 'application/json');
  expect(statement.status).toBe(200);
  return statement.body as Record<string, any>;
}

/** Σ of the activities' signed quantities per symbol, symbols summing to 0 left out: a partner's ledger of units. */
export function unitsBySymbol(activities: Array<{ symbol: string | null; qty: string | null }>) {
  const units: Record<string, string> = {};
  for (const a of activities) {
    if (a.symbol && a.qty !== null) {
      units[a.symbol] = new Decimal(units[a.symbol] ?? 0).plus(a.qty).toFixed();
    }
  }
  return Object.fromEntries(Object.entries(units).filter(([, qty]) => !new Decimal(qty).isZero()));
}

/** The cash a position's fills cost: Σ quantity × price, each fill in cents (half up), as trading books it. */
export function costOf(executions: Array<Record<string, string>>): Decimal {
  return executions.reduce(
    (sum, e) => sum.plus(new Decimal(e.quantity).times(e.price).toDecimalPlaces(2, Decimal.ROUND_HALF_UP)),
    new Decimal(0),
  );
}

/**
 * A partner's webhook endpoint for corporate action and order events, signatures checked;
 * `waitFor(predicate, count)` polls until that many matching deliveries arrived.
 */
export async function corporateActionWebhook(ctx: TestContext, creds: TestCredentials) {
  const receiver = new WebhookReceiver();
  const url = await receiver.start({ ctx, creds });
  const created = await ctx.as(creds).post('/v1/webhooks', {
    name: 'corporate actions',
    url,
    eventTypeNames: ['corporate_action.*', 'order.canceled'],
  });
  if (created.status !== 201) {
    throw new Error(`webhook failed: ${created.status} ${JSON.stringify(created.body)}`);
  }
  const signer = new Webhook(created.body.secret as string);
  return {
    async waitFor(
      match: (event: Delivery['json']) => boolean,
      count = 1,
      timeoutMs = 20_000,
    ): Promise<Array<Delivery['json']>> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await receiver.refresh();
        const got = receiver.deliveries.filter((d) => match(d.json));
        if (got.length >= count) {
          got.forEach((d) => expect(signer.verify(d.body, d.headers as Record<string, string>)).toBeTruthy());
          return got.map((d) => d.json);
        }
        if (Date.now() > deadline) {
          throw new Error(
            `Wanted ${count} matching events; got ${receiver.deliveries.map((d) => d.json.event).join(', ')}`,
          );
        }
        await new Promise((r) => setTimeout(r, isRemote ? 200 : 50));
      }
    },
    all: () => receiver.deliveries.map((d) => d.json),
    stop: () => receiver.stop(),
  };
}

/** The ledger audit of a tenant finds nothing (in-process app only: it reads the database). */
export async function expectAuditClean(ctx: TestContext, tenantId: string): Promise<void> {
  const { LedgerAudit } = await import('src/modules/ledger/ledger-audit.service');
  expect(await ctx.app!.get(LedgerAudit).check(tenantId)).toEqual(NO_LEDGER_DISCREPANCIES);
}

/** Ids of the assets an asset search answers (first page of 100). */
export async function searchIds(ctx: TestContext, creds: TestCredentials, q: string): Promise<string[]> {
  const res = await ctx.as(creds).get(`/v1/assets/search?q=${encodeURIComponent(q)}&limit=100`);
  if (res.status !== 200) {
    throw new Error(`search failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return (res.body.data as Array<{ id: string }>).map((a) => a.id);
}
