import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ReadBatch } from 'src/core/database/read-batch';
import { WriteBatch } from 'src/core/database/write-batch';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotencyService } from 'src/core/idempotency/idempotency.service';
import type { KeyedInTransaction } from 'src/core/idempotency/keys-in-transaction';

function keyedInTransaction(request: IdempotentRequest | undefined): request is KeyedInTransaction {
  return request?.fingerprint !== undefined;
}

/**
 * The one way a POST that changes state commits: the work runs in a transaction, and when the
 * request carries an Idempotency-Key its response body is stored in that same transaction. After
 * a crash the key is either completed with the response of the committed effect, or free again
 * (its lease ran out, or on a marked route nothing was written): never "in progress" over a
 * committed effect.
 *
 * `work` must return exactly the body the route answers (it is stored as is), so render the
 * response inside the transaction, reading through `manager`. Writes `work` adds to `batch` run
 * after it returns, in one statement with the stored response (one round trip for all of them).
 *
 * On a route marked `@IdempotencyInTransaction()` the key is checked by a read in `reads`: send
 * the transaction's first reads through that batch so the check costs no round trip of its own
 * (it throws the replay or the 409 as soon as the batch ran). Reads left unsent when `work`
 * returns run then, before the writes.
 */
@Injectable()
export class IdempotentTransaction {
  constructor(
    private readonly dataSource: DataSource,
    private readonly idempotency: IdempotencyService,
  ) {}

  async run<T>(
    request: IdempotentRequest | undefined,
    work: (manager: EntityManager, batch: WriteBatch, reads: ReadBatch) => Promise<T>,
  ): Promise<T> {
    const body = await this.dataSource.transaction(async (manager) => {
      const batch = new WriteBatch();
      const reads = new ReadBatch();
      if (keyedInTransaction(request)) {
        this.idempotency.inTransaction.checkIn(reads, request);
      }
      const result = await work(manager, batch, reads);
      await reads.run(manager);
      if (request) {
        this.idempotency.completeInto(batch, request, request.status, result);
      }
      await batch.run(manager);
      return result;
    });
    if (request) {
      request.settled = true;
      this.idempotency.settled(request);
    }
    return body;
  }
}
