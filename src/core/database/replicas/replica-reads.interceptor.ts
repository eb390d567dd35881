import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { from, lastValueFrom, Observable } from 'rxjs';
import type { Principal } from 'src/core/auth/principal';
import { READS_MAY_LAG, ReadContext, withReplicaReads } from 'src/core/database/replicas/read-context';
import { ReplicaSet } from 'src/core/database/replicas/replica-set';
import { WriteMarks } from 'src/core/database/replicas/write-marks';

const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * With read replicas configured: a @ReadsMayLag() GET runs with its plain reads allowed on a
 * replica that has replayed the caller's last write; any other request of a caller that
 * succeeds records the primary's position as that caller's last write before it answers, so
 * the caller's next request (to any API process) sees it.
 */
@Injectable()
export class ReplicaReadsInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly replicas: ReplicaSet,
    private readonly marks: WriteMarks,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!this.replicas.configured || context.getType() !== 'http') {
      return next.handle();
    }
    const request = context.switchToHttp().getRequest<Request & { principal?: Principal }>();
    const caller = request.principal?.keyId;
    if (!caller) {
      return next.handle();
    }
    if (!READ_METHODS.has(request.method)) {
      return from(this.thenMark(caller, next));
    }
    const mayLag = this.reflector.getAllAndOverride<boolean>(READS_MAY_LAG, [
      context.getHandler(),
      context.getClass(),
    ]);
    const tenant = { tenantId: request.principal!.tenantId, livemode: request.principal!.livemode };
    return mayLag ? from(this.onReplicas(caller, tenant, next)) : next.handle();
  }

  private async thenMark(caller: string, next: CallHandler): Promise<unknown> {
    const result = await lastValueFrom(next.handle(), { defaultValue: undefined });
    await this.marks.record(caller);
    return result;
  }

  private async onReplicas(
    caller: string,
    tenant: ReadContext['tenant'],
    next: CallHandler,
  ): Promise<unknown> {
    const required = await this.marks.required(caller);
    if (required === undefined) {
      return lastValueFrom(next.handle(), { defaultValue: undefined });
    }
    return withReplicaReads(required, tenant, () =>
      lastValueFrom(next.handle(), { defaultValue: undefined }),
    );
  }
}
