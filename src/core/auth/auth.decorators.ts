import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiForbiddenResponse, ApiNotFoundResponse } from '@nestjs/swagger';
import { ApiErrors, ErrorEnvelopeDto, errorExample, LegacyErrorDto } from 'src/core/errors/error-docs';
import type { Principal } from 'src/core/auth/principal';
import type { Product } from 'src/core/tenancy/tenant.entity';

export const PUBLIC_ROUTE = 'auth:public';
export const TENANT_LEVEL = 'auth:tenant-level';
export const REQUIRED_PRODUCT = 'auth:product';
export const TEST_MODE_ONLY = 'auth:test-mode-only';

/** No credentials needed (health, error docs). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/** Refused to investor-scoped keys with 403 SVC-403-001; documented as such. */
export function TenantLevel(): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(TENANT_LEVEL, true), ApiErrors('SVC-403-001'));
}

/** Marks an add-on product's routes; tenants without it get the legacy 403 body. */
export function RequiresProduct(product: Product): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(REQUIRED_PRODUCT, product),
    ApiForbiddenResponse({
      description: `PRODUCT_NOT_ENABLED: the ${product} add-on is not enabled for this tenant (legacy body).`,
      type: LegacyErrorDto,
      example: {
        status: 'error',
        code: 'PRODUCT_NOT_ENABLED',
        message: `The ${product} product is not enabled for this tenant. Contact support to enable it.`,
      },
    }),
  );
}

/** Sandbox test helpers: live keys get 404 as if the route did not exist. */
export function TestModeOnly(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(TEST_MODE_ONLY, true),
    ApiNotFoundResponse({
      description: 'SVC-404-001: test helpers exist only for test-mode keys.',
      type: ErrorEnvelopeDto,
      examples: {
        live_key: { summary: 'Called with a live key', value: errorExample('SVC-404-001') },
      },
    }),
  );
}

/** The authenticated caller. */
export const CurrentPrincipal = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Principal =>
    ctx.switchToHttp().getRequest<{ principal: Principal }>().principal,
);
