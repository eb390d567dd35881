import { QueryFailedError } from 'typeorm';
import { renumberParameters } from 'src/core/database/batched-sql';
import { preparedQuery } from 'src/core/database/prepared-query';
import { ReadBatch } from 'src/core/database/read-batch';
import { WriteBatch } from 'src/core/database/write-batch';
import { createServiceContext, describeLocal, ServiceContext } from '../support/service-context';

describeLocal('Write and read batches (one statement per batch, on a real database)', () => {
  let ctx: ServiceContext;

  beforeAll(async () => {
    ctx = await createServiceContext([]);
    await ctx.dataSource.query(
      'CREATE TABLE batch_probe (id text PRIMARY KEY, owner text NOT NULL, amount numeric NOT NULL)',
    );
    await ctx.dataSource.query(
      'CREATE TABLE batch_probe_log (probe_id text NOT NULL REFERENCES batch_probe (id), note text NOT NULL)',
    );
  });

  afterAll(() => ctx?.close());

  const rows = (sql: string, params: unknown[] = []) => ctx.dataSource.query(sql, params);

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
      const probe = batch.add(
        'INSERT INTO batch_probe (id, owner, amount) VALUES ($1, $2, $3) RETURNING id',
        ['p1', 'alice', '10.25'],
        (n) => counts.push(n),
      );
      batch.add(
        `INSERT INTO batch_probe_log (probe_id, note) SELECT id, $1 FROM ${probe.name} RETURNING probe_id`,
        ['created'],
        (n) => counts.push(n),
      );
      batch.add(
        'UPDATE batch_probe SET amount = amount + $2 WHERE owner = $1 RETURNING id',
        ['nobody', '1'],
        (n) => counts.push(n),
      );
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
        batch.add('INSERT INTO batch_probe (id, owner, amount) VALUES ($1, $2, $3) RETURNING id', [
          'p2',
          'bob',
          '1',
        ]);
        batch.add('UPDATE batch_probe SET amount = 0 WHERE id = $1 RETURNING id', ['missing'], (n) => {
          if (n !== 1) {
            throw new Error('refused');
          }
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

  it('a prepared statement that fails is thrown as QueryFailedError, and the connection goes on working', async () => {
    const fail = () => preparedQuery(ctx.dataSource, 'SELECT 1 / $1::int AS x', [0]);
    await expect(fail()).rejects.toBeInstanceOf(QueryFailedError);
    await expect(fail()).rejects.toThrow(/division by zero/);
    expect(await preparedQuery(ctx.dataSource, 'SELECT 1 / $1::int AS x', [1])).toEqual([{ x: 1 }]);
  });
});
