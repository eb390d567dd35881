import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { HeldKey } from 'src/core/idempotency/idempotency.service';

/**
 * The Idempotency-Key reservation of the current request, when it sent one. A service hands it
 * to `IdempotentTransaction.run` so the response is stored in the same transaction as the effect.
 */
export interface IdempotentRequest extends HeldKey {
  /** The status the route answers on success (201 for POST unless @HttpCode says otherwise). */
  status: number;
  /** Set once the response was stored inside the effect's transaction. */
  settled: boolean;
}

/** Controller parameter: the request's reservation, or undefined without an Idempotency-Key. */
export const Idempotency = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): IdempotentRequest | undefined =>
    ctx.switchToHttp().getRequest<{ idempotency?: IdempotentRequest }>().idempotency,
);
