import { Injectable } from '@nestjs/common';
import { ServiceError } from 'src/core/errors/service-error';
import { CreatedKey, TenancyService } from 'src/core/tenancy/tenancy.service';
import { PRODUCTS, TenantEntity } from 'src/core/tenancy/tenant.entity';
import {
  CreateSandboxTenantDto,
  DeletedSandboxTenantDto,
  SandboxKeyDto,
  SandboxTenantDto,
  SandboxTenantListDto,
  SandboxTenantWithKeysDto,
  UpdateSandboxTenantDto,
} from 'src/modules/sandbox-admin/dto/sandbox-tenant.dto';
import { TenantEraser } from 'src/modules/sandbox-admin/tenant-eraser.service';

const LIST_LIMIT = 1000;

function tenantView(tenant: TenantEntity): SandboxTenantDto {
  return {
    tenant_id: tenant.id,
    name: tenant.name,
    products: tenant.products,
    fixed_income_enabled: tenant.fixed_income_enabled,
  };
}

function keyView(created: CreatedKey): SandboxKeyDto {
  return { id: created.key.id, public_key: created.key.public_key, secret: created.secret };
}

/** Tenants of a sandbox for QA runs: the CLI's tenants:create and tenants:update over HTTP, and erasure. */
@Injectable()
export class SandboxTenantsService {
  constructor(
    private readonly tenancy: TenancyService,
    private readonly eraser: TenantEraser,
  ) {}

  async create(dto: CreateSandboxTenantDto): Promise<SandboxTenantWithKeysDto> {
    const { tenant, test, live } = await this.tenancy.createTenant(
      dto.name,
      dto.products ?? [],
      dto.fixedIncomeEnabled ?? false,
    );
    return { ...tenantView(tenant), keys: { test: keyView(test), live: keyView(live) } };
  }

  async list(namePrefix: string): Promise<SandboxTenantListDto> {
    const tenants = await this.tenancy.listTenantsByNamePrefix(namePrefix, LIST_LIMIT + 1);
    return { data: tenants.slice(0, LIST_LIMIT).map(tenantView), has_more: tenants.length > LIST_LIMIT };
  }

  async update(tenantId: string, dto: UpdateSandboxTenantDto): Promise<SandboxTenantDto> {
    const products = dto.products;
    const tenant = await this.tenancy.updateTenant(tenantId, {
      enable: products,
      disable: products ? PRODUCTS.filter((p) => !products.includes(p)) : undefined,
      fixedIncomeEnabled: dto.fixedIncomeEnabled,
    });
    return tenantView(tenant);
  }

  async remove(tenantId: string): Promise<DeletedSandboxTenantDto> {
    const erased = await this.eraser.erase(tenantId);
    if (!erased) {
      throw ServiceError.notFound('tenant', tenantId);
    }
    return { tenant_id: tenantId, deleted: true, erased };
  }
}
