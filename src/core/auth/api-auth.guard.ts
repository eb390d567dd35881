import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { NotAuthenticatedError } from 'src/core/auth/auth-errors';
import { PUBLIC_ROUTE } from 'src/core/auth/auth.decorators';
import { basicCredentials } from 'src/core/auth/basic-credentials';
import { BasicStrategy } from 'src/core/auth/basic.strategy';
import { CredentialCache } from 'src/core/auth/credential-cache';
import type { Principal } from 'src/core/auth/principal';
import { ServiceError } from 'src/core/errors/service-error';
import { AuthFailureLimiter } from 'src/core/rate-limit/auth-failure-limiter';
import { TooManyFailedAuthenticationsError } from 'src/core/rate-limit/rate-limit-errors';

interface AuthRequest {
  headers: Record<string, string | undefined>;
  principal?: Principal;
  /**
   * Basic credentials refused: the principal their public key would have had when this service
   * knows the key (wrong secret, revoked or expired key), null when it does not. Never authorizes
   * anything; it only lets the tenant's request log show the refused request.
   */
  refusedKey?: Principal | null;
  ip?: string;
  socket?: { remoteAddress?: string };
}

/**
 * Global guard: HTTP Basic or Bearer JWT, either one satisfies a route. Every failure cause
 * answers the same 401 SVC-401-001.
 *
 * Basic credentials are decoded here and handed straight to BasicStrategy.validate (the
 * passport-http strategy's own check) instead of going through passport.authenticate, whose
 * per-request closures and deprecated Buffer() call cost more than the rest of auth together on
 * the hottest path of the service. Bearer tokens go through passport-jwt.
 */
@Injectable()
export class ApiAuthGuard extends AuthGuard(['jwt']) {
  private readonly publicRoutes = new WeakMap<object, boolean>();

  constructor(
    private readonly reflector: Reflector,
    private readonly basic: BasicStrategy,
    private readonly cache: CredentialCache,
    private readonly failures: AuthFailureLimiter,
  ) {
    super();
  }

  /**
   * True, or a promise of it; throws the 401 (or 429). A cached API key answers without a
   * promise, so the common request authenticates synchronously.
   */
  override canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (this.isPublic(context)) {
      return true;
    }
    const req = context.getArgByIndex<AuthRequest>(0);
    const header = req.headers.authorization;
    if (!header) {
      throw new NotAuthenticatedError(); // no credentials: nothing was guessed
    }
    if (header.length > 6 && header.slice(0, 6).toLowerCase() === 'basic ') {
      const credentials = basicCredentials(header);
      if (!credentials) {
        return this.refuse(req, undefined);
      }
      const { publicKey, secret } = credentials;
      const principal = this.basic.validate(publicKey, secret);
      if (principal instanceof Promise) {
        return principal.then((loaded) => this.admit(req, publicKey, loaded));
      }
      if (principal) {
        req.principal = principal;
        return true;
      }
      // Refused from memory: the refusal pays the database read an unknown key pays (same cost).
      return this.basic
        .validateAfresh(publicKey, secret)
        .then((loaded) => this.admit(req, publicKey, loaded));
    }
    if (header.length > 7 && header.slice(0, 7).toLowerCase() === 'bearer ') {
      return this.bearer(context, req);
    }
    return this.refuse(req, undefined);
  }

  private admit(req: AuthRequest, publicKey: string, principal: Principal | false): true | Promise<never> {
    if (!principal) {
      req.refusedKey = this.cache.peek(publicKey)?.principal ?? null;
      return this.refuse(req, publicKey);
    }
    req.principal = principal;
    return true;
  }

  private async bearer(context: ExecutionContext, req: AuthRequest): Promise<boolean> {
    try {
      return (await super.canActivate(context)) as boolean;
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'SVC-401-001') {
        return this.refuse(req, undefined);
      }
      throw err;
    }
  }

  /** A failed attempt: 401, or 429 once its public key or address is past the failure limit. */
  private async refuse(req: AuthRequest, publicKey: string | undefined): Promise<never> {
    const address = req.ip ?? req.socket?.remoteAddress ?? 'unknown';
    const retryAfter = await this.failures.recordFailure(address, publicKey);
    if (retryAfter !== null) {
      throw new TooManyFailedAuthenticationsError(retryAfter);
    }
    throw new NotAuthenticatedError();
  }

  override handleRequest<T = Principal>(err: unknown, user: T | false): T {
    if (err instanceof ServiceError) {
      throw err;
    }
    if (err || !user) {
      throw new NotAuthenticatedError();
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
