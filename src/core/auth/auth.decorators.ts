import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiExtraModels, ApiForbiddenResponse, ApiNotFoundResponse, getSchemaPath } from '@nestjs/swagger';
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

/**
 * An add-on product's tenant-level routes: the legacy 403 body when the tenant lacks the product,
 * 403 SVC-403-001 for investor-scoped keys; both documented on one 403 response.
 */
export function RequiresProductTenantLevel(product: Product): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(REQUIRED_PRODUCT, product),
    SetMetadata(TENANT_LEVEL, true),
    ApiExtraModels(LegacyErrorDto, ErrorEnvelopeDto),
    ApiForbiddenResponse({
      description:
        `PRODUCT_NOT_ENABLED: the ${product} add-on is not enabled for this tenant (legacy body); ` +
        'SVC-403-001: investor-scoped keys may not call tenant-level routes.',
      schema: { oneOf: [{ $ref: getSchemaPath(LegacyErrorDto) }, { $ref: getSchemaPath(ErrorEnvelopeDto) }] },
      examples: {
        PRODUCT_NOT_ENABLED: {
          summary: 'Add-on not enabled',
          value: {
            status: 'error',
            code: 'PRODUCT_NOT_ENABLED',
            message: `The ${product} product is not enabled for this tenant. Contact support to enable it.`,
          },
        },
        'SVC-403-001': { summary: 'Investor-scoped key', value: errorExample('SVC-403-001') },
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
