import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { Request, Response } from 'express';
import type { Principal } from 'src/core/auth/principal';
import { ErrorRenderer } from 'src/core/errors/error-renderer';
import { ServiceError } from 'src/core/errors/service-error';
import { IdempotentReplay } from 'src/core/idempotency/idempotent-replay';
import { IDEMPOTENCY_IN_TRANSACTION, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import {
  IdempotencyScope,
  IdempotencyService,
  principalScopeOf,
} from 'src/core/idempotency/idempotency.service';
import type { KeyedInTransaction } from 'src/core/idempotency/keys-in-transaction';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/**
 * Idempotency-Key on every POST: the first request runs and its successful response is stored
 * for 24 h; a repeat with the same body replays it (Idempotent-Replayed: true), another body
 * gives 409 SVC-409-002, a repeat while the first runs gives 409 SVC-409-003. A request that
 * fails stores nothing (its transaction rolled back), so the same key may be retried.
 *
 * The reservation is put on the request (`@Idempotency()`): routes that commit through
 * `IdempotentTransaction` store their response inside the effect's transaction. Routes marked
 * `@IdempotencyInTransaction()` reserve nothing here: their transaction checks the key first. For any other
 * route the response is stored when it is sent. A reservation whose process died is released
 * when its lease runs out (IDEMPOTENCY_LEASE_MS).
 *
 * Keys are scoped to the principal that sent them: tenant, mode and the investor scope of the key
 * or token (a tenant-level key and an investor key never share a key space). A replay answers only
 * the principal that made the first request; the same key from another principal is a new request.
 *
 * A guard rather than an interceptor: it runs after authentication (the key is scoped per
 * principal) and costs one method comparison on every other request, where a global
 * interceptor would wrap every handler of the service in an observable pipeline.
 */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  private readonly routes = new WeakMap<object, { status: number; inTransaction: boolean }>();

  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly errors: ErrorRenderer,
  ) {}

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
      principal: principalScopeOf(req.principal),
      key,
    };
    const fingerprint = IdempotencyService.fingerprint(
      req.method,
      req.path,
      req.is('multipart/form-data') ? req.headers['content-length'] : req.body,
    );
    const route = this.routeOf(context.getHandler());
    if (route.inTransaction) {
      // Checked and stored inside the effect's transaction (IdempotentTransaction): nothing to
      // reserve now, and nothing to release if the request fails.
      const request: KeyedInTransaction = {
        scope,
        token: '',
        status: route.status,
        settled: false,
        fingerprint,
      };
      req.idempotency = request;
      this.storeIfUnsettled(req, context.switchToHttp().getResponse<Response>(), request);
      return true;
    }
    const reservation = await this.idempotency.reserve(scope, fingerprint);
    if (reservation.kind === 'replay') {
      throw new IdempotentReplay(reservation.status, reservation.body);
    }
    const request: IdempotentRequest = {
      scope,
      token: reservation.token,
      status: route.status,
      settled: false,
    };
    req.idempotency = request;
    this.settleWithResponse(context.switchToHttp().getResponse<Response>(), request);
    return true;
  }

  /** The route's success status and whether it keeps its key inside its transaction. */
  private routeOf(handler: object): { status: number; inTransaction: boolean } {
    let route = this.routes.get(handler);
    if (route === undefined) {
      route = {
        status:
          (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ?? HttpStatus.CREATED,
        inTransaction: Reflect.getMetadata(IDEMPOTENCY_IN_TRANSACTION, handler) === true,
      };
      this.routes.set(handler, route);
    }
    return route;
  }

  /**
   * A marked route stores its response in its transaction; should one answer 2xx without it, the
   * response is stored before it is sent, so a repeat still replays it. A refusal sent before the
   * transaction read the key gives way to what the stored key answers (409 or replay).
   */
  private storeIfUnsettled(req: Request, res: Response, request: KeyedInTransaction): void {
    const send = res.json.bind(res);
    res.json = (body?: unknown) => {
      res.json = send;
      const status = res.statusCode;
      if (request.settled || (status >= 300 && request.checked) || status < 200) {
        return send(body);
      }
      if (status >= 300) {
        // Refused before the transaction read the key: the stored key's answer comes first.
        this.idempotency.inTransaction.answerForRefused(request).then(
          (answer) => (answer ? this.errors.render(answer, req, res) : send(body)),
          () => send(body),
        );
        return res;
      }
      this.idempotency.inTransaction.storeAfter(request, status, body).then(
        () => send(body),
        () => send(body),
      );
      return res;
    };
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
