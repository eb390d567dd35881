import { CallHandler, ExecutionContext, HttpStatus, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, Observable, of } from 'rxjs';
import { catchError, concatMap, mergeMap } from 'rxjs/operators';
import type { Principal } from 'src/core/auth/principal';
import { ServiceError } from 'src/core/errors/service-error';
import { IdempotencyScope, IdempotencyService } from 'src/core/idempotency/idempotency.service';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/**
 * Idempotency-Key on every POST: the first request runs and its successful response is stored
 * for 24 h; a repeat with the same body replays it (Idempotent-Replayed: true), another body
 * gives 409 SVC-409-002, a repeat while the first runs gives 409 SVC-409-003. A request that
 * fails stores nothing (its transaction rolled back), so the same key may be retried.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request & { principal?: Principal }>();
    const key = req.method === 'POST' ? req.headers[IDEMPOTENCY_HEADER] : undefined;
    if (typeof key !== 'string' || !req.principal) {
      return next.handle();
    }
    if (key.length === 0 || key.length > 255) {
      throw ServiceError.invalid('Idempotency-Key', 'Idempotency-Key must be 1 to 255 characters.');
    }
    const res = context.switchToHttp().getResponse<Response>();
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
    const status = this.reflector.get<number>(HTTP_CODE_METADATA, context.getHandler()) ?? HttpStatus.CREATED;

    return from(this.idempotency.reserve(scope, fingerprint)).pipe(
      mergeMap((reservation) => {
        if (reservation.kind === 'replay') {
          res.setHeader('Idempotent-Replayed', 'true');
          res.status(reservation.status);
          return of(reservation.body);
        }
        return next.handle().pipe(
          concatMap(async (body: unknown) => {
            await this.idempotency.complete(scope, status, body);
            return body;
          }),
          catchError(async (err: unknown) => {
            await this.idempotency.release(scope).catch(() => undefined);
            throw err;
          }),
        );
      }),
    );
  }
}
