import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotencyService } from 'src/core/idempotency/idempotency.service';

/**
 * The one way a POST that changes state commits: the work runs in a transaction, and when the
 * request carries an Idempotency-Key its response body is stored in that same transaction. After
 * a crash the key is either completed with the response of the committed effect, or its lease
 * runs out and it is free again: never "in progress" over a committed effect.
 *
 * `work` must return exactly the body the route answers (it is stored as is), so render the
 * response inside the transaction, reading through `manager`.
 */
@Injectable()
export class IdempotentTransaction {
  constructor(
    private readonly dataSource: DataSource,
    private readonly idempotency: IdempotencyService,
  ) {}

  async run<T>(
    request: IdempotentRequest | undefined,
    work: (manager: EntityManager) => Promise<T>,
  ): Promise<T> {
    const body = await this.dataSource.transaction(async (manager) => {
      const result = await work(manager);
      if (request) {
        await this.idempotency.completeWithin(manager, request, request.status, result);
      }
      return result;
    });
    if (request) {
      request.settled = true;
      this.idempotency.settled(request);
    }
    return body;
  }
}
