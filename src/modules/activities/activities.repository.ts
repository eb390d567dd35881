import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ActivityFilter, ActivityRow, ActivityScope } from 'src/modules/activities/activity-types';

/** A row as written by record(): every field the record shows except the id. */
export interface NewActivityRow {
  source_key: string;
  account_id: string;
  activity_type: string;
  status: string;
  date: string;
  transaction_time: string;
  currency: string;
  net_amount: string;
  symbol: string | null;
  qty: string | null;
  price: string | null;
  per_share_amount: string | null;
  side: string | null;
  order_id: string | null;
  transaction_id: string | null;
  corporate_action_id: string | null;
  journal_id: string | null;
  conversion_id: string | null;
  description: string | null;
}

const COLUMNS =
  "id, account_id, activity_type, status, to_char(date, 'YYYY-MM-DD') AS date, " +
  'transaction_time, currency, net_amount::text AS net_amount, symbol, qty::text AS qty, price::text AS price, ' +
  'per_share_amount::text AS per_share_amount, side, order_id, transaction_id, corporate_action_id, journal_id, ' +
  'conversion_id, description';

/**
 * The activities table. Rows are written without an id in the caller's transaction; `sequence`
 * gives the committed ones their `seq` and `id` in one short transaction per account, under a lock
 * only sequencing takes, so an id is never smaller than one a reader has already been shown.
 */
@Injectable()
export class ActivitiesRepository {
  /** Inserts the rows; a row whose source key exists stays as it was. How many were new. */
  async insert(manager: EntityManager, scope: ActivityScope, rows: NewActivityRow[]): Promise<number> {
    if (rows.length === 0) {
      return 0;
    }
    const inserted: unknown[] = await manager.query(
      `INSERT INTO activities (tenant_id, livemode, source_key, account_id, activity_type, status, date,
                               transaction_time, currency, net_amount, symbol, qty, price, per_share_amount,
                               side, order_id, transaction_id, corporate_action_id, journal_id, conversion_id,
                               description)
       SELECT $2, $3, r.source_key, r.account_id::uuid, r.activity_type, r.status, r.date::date,
              r.transaction_time::timestamptz, r.currency, r.net_amount::numeric, r.symbol, r.qty::numeric,
              r.price::numeric, r.per_share_amount::numeric, r.side, r.order_id, r.transaction_id,
              r.corporate_action_id, r.journal_id, r.conversion_id, r.description
         FROM jsonb_to_recordset($1::jsonb) AS r(source_key text, account_id text, activity_type text,
              status text, date text, transaction_time text, currency text, net_amount text, symbol text,
              qty text, price text, per_share_amount text, side text, order_id text, transaction_id text,
              corporate_action_id text, journal_id text, conversion_id text, description text)
       ON CONFLICT (tenant_id, livemode, source_key) DO NOTHING RETURNING position`,
      [JSON.stringify(rows), scope.tenantId, scope.livemode],
    );
    return inserted.length;
  }

  /**
   * Gives every committed, not yet sequenced activity of the account its seq and id, in the order
   * written (transaction time, then insertion). Runs in its own transaction so the ids are
   * committed before anyone is shown them.
   */
  async sequence(manager: EntityManager, accountId: string): Promise<void> {
    const pending: unknown[] = await manager.query(
      `SELECT 1 FROM activities WHERE account_id = $1 AND seq IS NULL LIMIT 1`,
      [accountId],
    );
    if (pending.length === 0) {
      return;
    }
    await manager.connection.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`activities:${accountId}`]);
      await m.query(
        `WITH ordered AS MATERIALIZED (
           SELECT position FROM activities
            WHERE account_id = $1 AND seq IS NULL
            ORDER BY transaction_time, position),
         numbered AS MATERIALIZED (SELECT position, nextval('activities_seq') AS seq FROM ordered)
         UPDATE activities a
            SET seq = n.seq,
                id = 'act_' || lpad(to_hex(n.seq), 16, '0') || substr(md5(gen_random_uuid()::text), 1, 10)
           FROM numbered n
          WHERE a.position = n.position`,
        [accountId],
      );
    });
  }

  /** The seq of an activity of this account (a page token), or null. */
  async seqOf(
    manager: EntityManager,
    scope: ActivityScope,
    accountId: string,
    id: string,
  ): Promise<string | null> {
    const rows: Array<{ seq: string }> = await manager.query(
      `SELECT seq::text AS seq FROM activities
        WHERE id = $1 AND account_id = $2 AND tenant_id = $3 AND livemode = $4`,
      [id, accountId, scope.tenantId, scope.livemode],
    );
    return rows[0]?.seq ?? null;
  }

  /** A page of sequenced activities in id order (asc or desc) after the token's seq. */
  async page(
    manager: EntityManager,
    scope: ActivityScope,
    accountId: string,
    filter: ActivityFilter,
  ): Promise<ActivityRow[]> {
    const params: unknown[] = [accountId, scope.tenantId, scope.livemode];
    const where = ['account_id = $1', 'tenant_id = $2', 'livemode = $3', 'seq IS NOT NULL'];
    const add = (sql: (p: string) => string, value: unknown) => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    if (filter.types?.length) {
      add((p) => `activity_type = ANY(${p}::text[])`, filter.types);
    }
    if (filter.date) {
      add((p) => `date = ${p}::date`, filter.date);
    }
    if (filter.after) {
      add((p) => `transaction_time > ${p}`, filter.after);
    }
    if (filter.until) {
      add((p) => `transaction_time <= ${p}`, filter.until);
    }
    const desc = filter.direction === 'desc';
    if (filter.afterSeq) {
      add((p) => `seq ${desc ? '<' : '>'} ${p}::bigint`, filter.afterSeq);
    }
    params.push(filter.pageSize);
    return manager.query(
      `SELECT ${COLUMNS} FROM activities WHERE ${where.join(' AND ')}
        ORDER BY activities.seq ${desc ? 'DESC' : 'ASC'} LIMIT $${params.length}`,
      params,
    );
  }

  /** Every sequenced activity of the account dated within [first, last] (business dates), by id. */
  async between(
    manager: EntityManager,
    scope: ActivityScope,
    accountId: string,
    first: string,
    last: string,
  ): Promise<ActivityRow[]> {
    return manager.query(
      `SELECT ${COLUMNS} FROM activities
        WHERE account_id = $1 AND tenant_id = $2 AND livemode = $3 AND seq IS NOT NULL
          AND date BETWEEN $4::date AND $5::date
        ORDER BY activities.seq`,
      [accountId, scope.tenantId, scope.livemode, first, last],
    );
  }
}
