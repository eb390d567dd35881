import type { DataSource } from 'typeorm';
import type { Receiver } from '../../webhooks/support/receiver';

/** What the database says happened, read after a run of many processes. */

export interface JobRow {
  id: string;
  kind: string;
  state: string;
  attempts: number;
}

/**
 * The tenants' scheduled jobs due by their clock now: test mode by the tenant's test clock (its
 * frozen time, else real time), live mode by real time. Jobs due later are left out.
 */
export function dueJobs(db: DataSource, tenantIds: string[]): Promise<JobRow[]> {
  return db.query(
    `SELECT j.id, j.kind, j.state, j.attempts
       FROM scheduled_jobs j
       LEFT JOIN test_clocks c ON c.tenant_id = j.tenant_id AND NOT j.livemode
      WHERE j.tenant_id = ANY($1) AND j.due_at <= COALESCE(c.frozen_time, now())
      ORDER BY j.due_at`,
    [tenantIds],
  );
}

/** Per deposit: its settlement journals and its `transfer.deposit.completed` events. */
export async function depositOutcomes(
  db: DataSource,
  tenantId: string,
  transactionIds: string[],
): Promise<Array<{ transactionId: string; settledJournals: number; completedEvents: number }>> {
  const rows: Array<{ id: string; journals: number; events: number }> = await db.query(
    `SELECT t.id,
            (SELECT count(*)::int FROM ledger_journals j
              WHERE j.tenant_id = $1 AND NOT j.livemode AND j.journal_key = t.id || ':settled') AS journals,
            (SELECT count(*)::int FROM events e
              WHERE e.tenant_id = $1 AND e.event = 'transfer.deposit.completed'
                AND e.data->>'transaction_id' = t.id) AS events
       FROM unnest($2::text[]) AS t(id)`,
    [tenantId, transactionIds],
  );
  return rows.map((r) => ({ transactionId: r.id, settledJournals: r.journals, completedEvents: r.events }));
}

/** Ids of the tenant's test-mode events, and which of them the receiver has not received. */
export async function eventsDelivered(
  db: DataSource,
  tenantId: string,
  receiver: Receiver,
): Promise<{ events: string[]; missing: string[]; foreign: string[]; received: number }> {
  const events = (
    (await db.query(`SELECT id FROM events WHERE tenant_id = $1 AND NOT livemode`, [tenantId])) as Array<{
      id: string;
    }>
  ).map((r) => r.id);
  const got = new Set(receiver.requests.map((r) => (JSON.parse(r.body) as { id: string }).id));
  const known = new Set(events);
  return {
    events,
    missing: events.filter((id) => !got.has(id)),
    foreign: [...got].filter((id) => !known.has(id)),
    received: receiver.requests.length,
  };
}

/** The tenant's events without a successful delivery attempt on record for this endpoint. */
export async function eventsWithoutSuccess(db: DataSource, tenantId: string, endpointId: string) {
  const rows: Array<{ id: string }> = await db.query(
    `SELECT e.id FROM events e
      WHERE e.tenant_id = $1 AND NOT e.livemode
        AND NOT EXISTS (SELECT 1 FROM webhook_delivery_attempts a
                         WHERE a.event_id = e.id AND a.endpoint_id = $2 AND a.succeeded)`,
    [tenantId, endpointId],
  );
  return rows.map((r) => r.id);
}

/**
 * Orders whose executions do not add up to what the order says it filled (quantity, number of
 * fills), or that filled more than they asked for: an order filled twice shows here.
 */
export function fillMismatches(db: DataSource, tenantId: string) {
  return db.query(
    `SELECT o.id, o.status, o.quantity, o.filled_quantity, o.fill_count,
            coalesce(sum(x.quantity), 0) AS executed, count(x.id)::int AS executions
       FROM orders o LEFT JOIN executions x ON x.order_id = o.id
      WHERE o.tenant_id = $1
      GROUP BY o.id
     HAVING coalesce(sum(x.quantity), 0) <> o.filled_quantity
         OR count(x.id) <> o.fill_count
         OR o.filled_quantity > o.quantity
         OR (o.status = 'filled' AND o.filled_quantity <> o.quantity)`,
    [tenantId],
  ) as Promise<Array<Record<string, unknown>>>;
}

/** Positions whose quantity is not the sum of their executions (buys less sells). */
export function positionMismatches(db: DataSource, tenantId: string) {
  return db.query(
    `WITH fills AS (
       SELECT account_id, asset_id, sum(CASE side WHEN 'buy' THEN quantity ELSE -quantity END) AS executed
         FROM executions WHERE tenant_id = $1 GROUP BY account_id, asset_id),
     held AS (SELECT account_id, asset_id, quantity FROM positions WHERE tenant_id = $1)
     SELECT account_id, asset_id, held.quantity, fills.executed
       FROM held FULL JOIN fills USING (account_id, asset_id)
      WHERE coalesce(held.quantity, 0) <> coalesce(fills.executed, 0)`,
    [tenantId],
  ) as Promise<Array<Record<string, unknown>>>;
}

/** Orders by status, and how many executions the tenant has (what the workload did). */
export async function tradingSummary(db: DataSource, tenantId: string) {
  const statuses: Array<{ status: string; n: number }> = await db.query(
    `SELECT status, count(*)::int AS n FROM orders WHERE tenant_id = $1 GROUP BY status`,
    [tenantId],
  );
  const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM executions WHERE tenant_id = $1`, [
    tenantId,
  ]);
  return { orders: Object.fromEntries(statuses.map((s) => [s.status, s.n])), executions: n as number };
}

/** The dividend's entitlements: one row per account holding the symbol at the record date. */
export function entitlementRows(db: DataSource, actionId: string) {
  return db.query(
    `SELECT account_id, eligible_quantity, net_cash, status FROM corporate_action_entitlements
      WHERE action_id = $1 ORDER BY account_id`,
    [actionId],
  ) as Promise<Array<{ account_id: string; eligible_quantity: string; net_cash: string; status: string }>>;
}
