import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { PUBLIC_ROUTE } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ServiceError } from 'src/core/errors/service-error';

const UNAUTHORIZED_HEADERS = { 'WWW-Authenticate': 'Basic realm="investment-api", Bearer' };

/**
 * Global guard: HTTP Basic or Bearer JWT, either one satisfies a route. Every failure cause
 * answers the same 401 SVC-401-001.
 */
@Injectable()
export class ApiAuthGuard extends AuthGuard(['basic', 'jwt']) {
  private readonly publicRoutes = new WeakMap<object, boolean>();

  constructor(private readonly reflector: Reflector) {
    super();
  }

  override canActivate(context: ExecutionContext) {
    if (this.isPublic(context)) {
      return true;
    }
    const header = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>()
      .headers.authorization;
    if (!header) {
      throw new ServiceError('SVC-401-001', undefined, undefined, UNAUTHORIZED_HEADERS);
    }
    return super.canActivate(context);
  }

  override handleRequest<T = Principal>(err: unknown, user: T | false): T {
    if (err instanceof ServiceError) {
      throw err;
    }
    if (err || !user) {
      throw new ServiceError('SVC-401-001', undefined, undefined, UNAUTHORIZED_HEADERS);
    }
    return user;
  }

  override getAuthenticateOptions() {
    return { session: false, property: 'principal' };
  }

  private isPublic(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let cached = this.publicRoutes.get(handler);
    if (cached === undefined) {
      cached =
        this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [handler, context.getClass()]) === true;
      this.publicRoutes.set(handler, cached);
    }
    return cached;
  }
}
