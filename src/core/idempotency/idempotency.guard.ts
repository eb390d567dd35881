import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Principal } from 'src/core/auth/principal';
import { ServiceError } from 'src/core/errors/service-error';
import { IdempotencyScope, IdempotencyService } from 'src/core/idempotency/idempotency.service';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** Thrown to answer a repeat with the stored response; the error renderer writes it as is. */
export class IdempotentReplay extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super('idempotent replay');
  }
}

/**
 * Idempotency-Key on every POST: the first request runs and its successful response is stored
 * for 24 h before it is sent; a repeat with the same body replays it (Idempotent-Replayed:
 * true), another body gives 409 SVC-409-002, a repeat while the first runs gives 409
 * SVC-409-003. A request that fails stores nothing (its transaction rolled back), so the same
 * key may be retried.
 *
 * A guard rather than an interceptor: it runs after authentication (the key is scoped per
 * tenant and mode) and costs one method comparison on every other request, where a global
 * interceptor would wrap every handler of the service in an observable pipeline.
 */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  constructor(private readonly idempotency: IdempotencyService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request & { principal?: Principal }>();
    if (req.method !== 'POST') {
      return true;
    }
    const key = req.headers[IDEMPOTENCY_HEADER];
    if (typeof key !== 'string' || !req.principal) {
      return true;
    }
    if (key.length === 0 || key.length > 255) {
      throw ServiceError.invalid('Idempotency-Key', 'Idempotency-Key must be 1 to 255 characters.');
    }
    const scope: IdempotencyScope = {
      tenantId: req.principal.tenantId,
      livemode: req.principal.livemode,
      key,
    };
    const fingerprint = IdempotencyService.fingerprint(
      req.method,
      req.path,
      req.is('multipart/form-data') ? req.headers['content-length'] : req.body,
    );
    const reservation = await this.idempotency.reserve(scope, fingerprint);
    if (reservation.kind === 'replay') {
      throw new IdempotentReplay(reservation.status, reservation.body);
    }
    this.settleWithResponse(context.switchToHttp().getResponse<Response>(), scope);
    return true;
  }

  /** Stores a 2xx JSON body before it is sent; releases the key on any error answer. */
  private settleWithResponse(res: Response, scope: IdempotencyScope): void {
    const send = res.json.bind(res);
    let settled = false;
    res.json = (body?: unknown) => {
      if (settled) {
        return send(body);
      }
      settled = true;
      const status = res.statusCode;
      const done =
        status >= 200 && status < 300
          ? this.idempotency.complete(scope, status, body)
          : this.idempotency.release(scope);
      done.then(
        () => send(body),
        () => send(body),
      );
      return res;
    };
    // Streams and other non-JSON answers (downloads) never pass through res.json.
    res.once('close', () => {
      if (!settled) {
        settled = true;
        void this.idempotency.release(scope).catch(() => undefined);
      }
    });
  }
}
