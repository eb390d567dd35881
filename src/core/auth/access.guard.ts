import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { FixedIncomeNotEnabledError, KeyScopeForbiddenError } from 'src/core/auth/auth-errors';
import { REQUIRED_PRODUCT, TENANT_LEVEL, TEST_MODE_ONLY } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ProductNotEnabledError, ServiceError } from 'src/core/errors/service-error';
import type { Product } from 'src/core/tenancy/tenant.entity';

interface RouteAccess {
  tenantLevel: boolean;
  product: Product | undefined;
  testModeOnly: boolean;
}

/**
 * Global guard after authentication: add-on entitlements (legacy 403), tenant-level routes
 * (403 SVC-403-001 for investor keys) and test-mode-only helpers (404 for live keys).
 * Route metadata is read once per handler and kept.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly routes = new WeakMap<object, RouteAccess>();

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const principal = context.getArgByIndex<{ principal?: Principal }>(0).principal;
    if (!principal) {
      return true; // public route
    }
    const access = this.access(context);
    if (access.testModeOnly && principal.livemode) {
      throw ServiceError.notFound('route');
    }
    if (access.product && !principal.products.has(access.product)) {
      throw new ProductNotEnabledError(access.product);
    }
    if (access.tenantLevel && principal.investorId) {
      throw new KeyScopeForbiddenError();
    }
    return true;
  }

  private access(context: ExecutionContext): RouteAccess {
    const handler = context.getHandler();
    let access = this.routes.get(handler);
    if (!access) {
      const targets = [handler, context.getClass()];
      access = {
        tenantLevel: this.reflector.getAllAndOverride<boolean>(TENANT_LEVEL, targets) === true,
        product: this.reflector.getAllAndOverride<Product>(REQUIRED_PRODUCT, targets),
        testModeOnly: this.reflector.getAllAndOverride<boolean>(TEST_MODE_ONLY, targets) === true,
      };
      this.routes.set(handler, access);
    }
    return access;
  }
}

/** fixedIncomeEnabled check for bond routing (403 SVC-403-002). */
export function assertFixedIncomeEnabled(principal: Principal): void {
  if (!principal.fixedIncomeEnabled) {
    throw new FixedIncomeNotEnabledError();
  }
}

/** Investor-scoped keys may only reach their own investor; others' ids look absent (404). */
export function assertInvestorVisible(principal: Principal, investorId: string, what = 'investor'): void {
  if (principal.investorId && principal.investorId !== investorId) {
    throw ServiceError.notFound(what, investorId);
  }
}
