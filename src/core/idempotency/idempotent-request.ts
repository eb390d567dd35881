import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { HeldKey } from 'src/core/idempotency/idempotency.service';

/**
 * The Idempotency-Key reservation of the current request, when it sent one. A service hands it
 * to `IdempotentTransaction.run` so the response is stored in the same transaction as the effect.
 */
export interface IdempotentRequest extends HeldKey {
  /** The status the route answers on success (201 for POST unless @HttpCode says otherwise). */
  status: number;
  /** Set once the response was stored inside the effect's transaction (or replayed from it). */
  settled: boolean;
  /**
   * Set on routes marked `@IdempotencyInTransaction()`: the request's fingerprint, checked and
   * stored inside the effect's transaction. No row was reserved beforehand (`token` is empty).
   */
  fingerprint?: string;
}

export const IDEMPOTENCY_IN_TRANSACTION = 'idempotency:in-transaction';

/**
 * Marks a POST route whose every success commits through `IdempotentTransaction.run`: its
 * Idempotency-Key is checked in that transaction's first read (a transaction-scoped advisory lock
 * on the key answers a concurrent repeat 409 SVC-409-003 at once) and stored in its write batch,
 * instead of being reserved by a statement and a commit of its own before the handler runs. A
 * request that fails stores nothing, and a crash holds no key.
 */
export const IdempotencyInTransaction = (): MethodDecorator => SetMetadata(IDEMPOTENCY_IN_TRANSACTION, true);

/** Controller parameter: the request's reservation, or undefined without an Idempotency-Key. */
export const Idempotency = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): IdempotentRequest | undefined =>
    ctx.switchToHttp().getRequest<{ idempotency?: IdempotentRequest }>().idempotency,
);
