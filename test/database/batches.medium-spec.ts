import { QueryFailedError } from 'typeorm';
import { renumberParameters } from 'src/core/database/batched-sql';
import { preparedQuery } from 'src/core/database/prepared-query';
import { ReadBatch } from 'src/core/database/read-batch';
import { WriteBatch } from 'src/core/database/write-batch';
import { madeBeforeAll } from '../support/made-before-all';
import { createServiceContext, describeLocal } from '../support/service-context';

describeLocal('Write and read batches (one statement per batch, on a real database)', () => {
  const ctx = madeBeforeAll('The service context', () => createServiceContext([]));
  beforeAll(async () => {
    await ctx.dataSource.query(
      'CREATE TABLE batch_probe (id text PRIMARY KEY, owner text NOT NULL, amount numeric NOT NULL)',
    );
    await ctx.dataSource.query(
      'CREATE TABLE batch_probe_log (probe_id text NOT NULL REFERENCES batch_probe (id), note text NOT NULL)',
    );
  });

  it('renumbers each statement’s parameters after those of the statements before it', () => {
    expect(renumberParameters('a = $1 AND b = $2 OR c = $1', 2, 3, 'probe')).toBe(
      'a = $4 AND b = $5 OR c = $4',
    );
    expect(() => renumberParameters('a = $3', 2, 0, 'probe')).toThrow('probe uses $3 but has 2 parameters');
  });

  it('writes every statement in one round trip; a later statement reads an earlier one’s rows; checks see the counts', async () => {
    const counts: number[] = [];
    const statements: string[] = [];
    await ctx.dataSource.transaction(async (manager) => {
      const batch = new WriteBatch();
      const probe = batch.add({
        sql: 'INSERT INTO batch_probe (id, owner, amount) VALUES ($1, $2, $3) RETURNING id',
        params: ['p1', 'alice', '10.25'],
        changes: { table: 'batch_probe', key: 'p1' },
        check: (n) => counts.push(n),
      });
      batch.add({
        sql: `INSERT INTO batch_probe_log (probe_id, note) SELECT id, $1 FROM ${probe.name} RETURNING probe_id`,
        params: ['created'],
        changes: { table: 'batch_probe_log', key: 'p1:created' },
        check: (n) => counts.push(n),
      });
      batch.add({
        sql: 'UPDATE batch_probe SET amount = amount + $2 WHERE id = $1 RETURNING id',
        params: ['nobody', '1'],
        changes: { table: 'batch_probe', key: 'nobody' },
        check: (n) => counts.push(n),
      });
      const runner = manager.queryRunner!;
      const client = (await runner.connect()) as { query: (...args: unknown[]) => unknown };
      const send = client.query.bind(client);
      client.query = (config: unknown, ...rest: unknown[]) => {
        statements.push(typeof config === 'string' ? config : (config as { text: string }).text);
        return send(config, ...rest);
      };
      try {
        await batch.run(manager);
      } finally {
        client.query = send;
      }
      expect(batch.size).toBe(0);
    });
    expect(statements).toHaveLength(1);
    expect(counts).toEqual([1, 1, 0]);
    expect(await rows('SELECT id, owner, amount::text FROM batch_probe')).toEqual([
      { id: 'p1', owner: 'alice', amount: '10.25' },
    ]);
    expect(await rows('SELECT probe_id, note FROM batch_probe_log')).toEqual([
      { probe_id: 'p1', note: 'created' },
    ]);
  });

  it('a check that throws rolls back every statement of the batch with the transaction', async () => {
    const error = await ctx.dataSource
      .transaction(async (manager) => {
        const batch = new WriteBatch();
        batch.add({
          sql: 'INSERT INTO batch_probe (id, owner, amount) VALUES ($1, $2, $3) RETURNING id',
          params: ['p2', 'bob', '1'],
          changes: { table: 'batch_probe', key: 'p2' },
        });
        batch.add({
          sql: 'UPDATE batch_probe SET amount = 0 WHERE id = $1 RETURNING id',
          params: ['missing'],
          changes: { table: 'batch_probe', key: 'missing' },
          check: (n) => {
            if (n !== 1) {
              throw new Error('refused');
            }
          },
        });
        await batch.run(manager);
      })
      .catch((e: unknown) => e);
    expect(error).toEqual(new Error('refused'));
    expect(await rows('SELECT id FROM batch_probe WHERE id = $1', ['p2'])).toEqual([]);
  });

  it('reads several rows in one statement; a read that finds nothing gives null, and a read cannot be used before the batch ran', async () => {
    await rows("INSERT INTO batch_probe (id, owner, amount) VALUES ('p3', 'carol', 5)");
    await ctx.dataSource.transaction(async (manager) => {
      const batch = new ReadBatch();
      const found = batch.add<{ id: string; owner: string }>(
        'SELECT id, owner FROM batch_probe WHERE id = $1 FOR SHARE',
        ['p3'],
      );
      const missing = batch.add<{ id: string }>('SELECT id FROM batch_probe WHERE owner = $1', ['nobody']);
      expect(() => found.row()).toThrow('has not run yet');
      await batch.run(manager);
      expect(found.row()).toEqual({ id: 'p3', owner: 'carol' });
      expect(missing.row()).toBeNull();
      // FOR SHARE held the row for this transaction: another one cannot lock it for update now.
      await expect(rows("SELECT id FROM batch_probe WHERE id = 'p3' FOR UPDATE NOWAIT")).rejects.toThrow(
        /could not obtain lock/,
      );
    });
  });

  it('refuses a second statement on a row the batch already changes (PostgreSQL would keep only one change)', async () => {
    await rows("INSERT INTO batch_probe (id, owner, amount) VALUES ('p4', 'dave', 10)");
    // What the fence prevents: two UPDATEs of one row in one statement, and only one of them counts.
    const [both] = await rows(
      `WITH a AS (UPDATE batch_probe SET amount = amount + 1 WHERE id = 'p4' RETURNING id),
            b AS (UPDATE batch_probe SET amount = amount + 2 WHERE id = 'p4' RETURNING id)
       SELECT (SELECT count(*) FROM a)::int AS a, (SELECT count(*) FROM b)::int AS b`,
    );
    expect(both.a + both.b).toBe(1);
    expect((await rows("SELECT amount::text FROM batch_probe WHERE id = 'p4'"))[0].amount).not.toBe('13');
    const batch = new WriteBatch();
    const add = (amount: string) =>
      batch.add({
        sql: 'UPDATE batch_probe SET amount = amount + $2 WHERE id = $1 RETURNING id',
        params: ['p4', amount],
        changes: { table: 'batch_probe', key: 'p4' },
      });
    add('1');
    expect(() => add('2')).toThrow('Two statements of one write batch change batch_probe row p4');
    expect(batch.size).toBe(1);
    // Another row of the table, or the same key in another table, is no twin.
    batch.add({
      sql: 'UPDATE batch_probe SET amount = 0 WHERE id = $1 RETURNING id',
      params: ['p5'],
      changes: { table: 'batch_probe', key: 'p5' },
    });
    batch.add({
      sql: 'INSERT INTO batch_probe_log (probe_id, note) VALUES ($1, $2) RETURNING probe_id',
      params: ['p4', 'noted'],
      changes: { table: 'batch_probe_log', key: 'p4' },
    });
    expect(batch.size).toBe(3);
  });

  it('reads come back in their database types, as a query of their own would give them', async () => {
    await ctx.dataSource.transaction(async (manager) => {
      const batch = new ReadBatch();
      const typed = batch.add<Record<string, unknown>>(
        `SELECT $1::numeric AS amount, $2::timestamptz AS at, $3::bigint AS big, $4::int AS small,
                $5::jsonb AS doc, ARRAY['a', 'b']::text[] AS list, NULL::text AS nothing, true AS yes`,
        ['12345678901234567890.12345678', '2049-03-03T09:00:00.000Z', '9007199254740993', 7, '{"k":[1]}'],
      );
      // Two reads may name their columns alike: each keeps its own.
      const other = batch.add<{ amount: string }>('SELECT $1::numeric AS amount', ['0.10']);
      await batch.run(manager);
      expect(typed.row()).toEqual({
        amount: '12345678901234567890.12345678',
        at: new Date('2049-03-03T09:00:00.000Z'),
        big: '9007199254740993',
        small: 7,
        doc: { k: [1] },
        list: ['a', 'b'],
        nothing: null,
        yes: true,
      });
      expect(other.row()).toEqual({ amount: '0.10' });
    });
  });

  it('a prepared statement that fails is thrown as QueryFailedError, and the connection goes on working', async () => {
    const fail = () => preparedQuery(ctx.dataSource, 'SELECT 1 / $1::int AS x', [0]);
    await expect(fail()).rejects.toBeInstanceOf(QueryFailedError);
    await expect(fail()).rejects.toThrow(/division by zero/);
    expect(await preparedQuery(ctx.dataSource, 'SELECT 1 / $1::int AS x', [1])).toEqual([{ x: 1 }]);
  });

  const rows = (sql: string, params: unknown[] = []) => ctx.dataSource.query(sql, params);
});
