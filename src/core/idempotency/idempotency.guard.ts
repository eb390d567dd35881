import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { Request, Response } from 'express';
import type { Principal } from 'src/core/auth/principal';
import { ServiceError } from 'src/core/errors/service-error';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
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
 * for 24 h; a repeat with the same body replays it (Idempotent-Replayed: true), another body
 * gives 409 SVC-409-002, a repeat while the first runs gives 409 SVC-409-003. A request that
 * fails stores nothing (its transaction rolled back), so the same key may be retried.
 *
 * The reservation is put on the request (`@Idempotency()`): routes that commit through
 * `IdempotentTransaction` store their response inside the effect's transaction. For any other
 * route the response is stored when it is sent. A reservation whose process died is released
 * when its lease runs out (IDEMPOTENCY_LEASE_MS).
 *
 * A guard rather than an interceptor: it runs after authentication (the key is scoped per
 * tenant and mode) and costs one method comparison on every other request, where a global
 * interceptor would wrap every handler of the service in an observable pipeline.
 */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  private readonly successStatus = new WeakMap<object, number>();

  constructor(private readonly idempotency: IdempotencyService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context
      .switchToHttp()
      .getRequest<Request & { principal?: Principal; idempotency?: IdempotentRequest }>();
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
    const request: IdempotentRequest = {
      scope,
      token: reservation.token,
      status: this.statusOf(context.getHandler()),
      settled: false,
    };
    req.idempotency = request;
    this.settleWithResponse(context.switchToHttp().getResponse<Response>(), request);
    return true;
  }

  private statusOf(handler: object): number {
    let status = this.successStatus.get(handler);
    if (status === undefined) {
      status = (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ?? HttpStatus.CREATED;
      this.successStatus.set(handler, status);
    }
    return status;
  }

  /**
   * Routes that stored their response in their transaction send it as is. Otherwise a 2xx JSON
   * body is stored before it is sent, and any error answer releases the key.
   */
  private settleWithResponse(res: Response, request: IdempotentRequest): void {
    const send = res.json.bind(res);
    let answered = false;
    res.json = (body?: unknown) => {
      if (answered || request.settled) {
        answered = true;
        return send(body);
      }
      answered = true;
      const status = res.statusCode;
      const done =
        status >= 200 && status < 300
          ? this.idempotency.complete(request, status, body)
          : this.idempotency.release(request);
      done.then(
        () => send(body),
        () => send(body),
      );
      return res;
    };
    // Streams and other non-JSON answers (downloads) never pass through res.json.
    res.once('close', () => {
      if (!answered && !request.settled) {
        answered = true;
        void this.idempotency.release(request).catch(() => undefined);
      }
    });
  }
}
