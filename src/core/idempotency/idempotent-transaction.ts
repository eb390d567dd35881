import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { WriteBatch } from 'src/core/database/write-batch';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotencyService } from 'src/core/idempotency/idempotency.service';

/**
 * The one way a POST that changes state commits: the work runs in a transaction, and when the
 * request carries an Idempotency-Key its response body is stored in that same transaction. After
 * a crash the key is either completed with the response of the committed effect, or its lease
 * runs out and it is free again: never "in progress" over a committed effect.
 *
 * `work` must return exactly the body the route answers (it is stored as is), so render the
 * response inside the transaction, reading through `manager`. Writes `work` adds to `batch` run
 * after it returns, in one statement with the stored response (one round trip for all of them).
 */
@Injectable()
export class IdempotentTransaction {
  constructor(
    private readonly dataSource: DataSource,
    private readonly idempotency: IdempotencyService,
  ) {}

  async run<T>(
    request: IdempotentRequest | undefined,
    work: (manager: EntityManager, batch: WriteBatch) => Promise<T>,
  ): Promise<T> {
    const body = await this.dataSource.transaction(async (manager) => {
      const batch = new WriteBatch();
      const result = await work(manager, batch);
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
