import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { EntityManager, Repository } from 'typeorm';
import { ServiceError } from 'src/core/errors/service-error';
import { CursorPage, CursorPageQuery, paginateByCursor } from 'src/core/http/pagination';
import { newId, newSecret } from 'src/core/ids/ids';
import { ApiKeyEntity, KeyEnvironment } from 'src/core/tenancy/api-key.entity';
import { hashSecret } from 'src/core/tenancy/secrets';
import { Product, TenantEntity } from 'src/core/tenancy/tenant.entity';

export interface CreatedKey {
  key: ApiKeyEntity;
  /** Returned once, at creation; only its hash is stored. */
  secret: string;
}

export interface CreateKeyInput {
  tenantId: string;
  environment: KeyEnvironment;
  investorId?: string | null;
  name?: string;
  expiresAt?: Date | null;
  metadata?: Record<string, string>;
}

export type PublicKeyStatus = 'active' | 'revoked' | 'expired';

/** Every column of a key and of its tenant (TenantEntity's prefixed), as findKeyWithTenant reads them. */
interface KeyWithTenantRow extends Omit<ApiKeyEntity, 'tenant'> {
  tenant_name: string;
  tenant_products: Product[];
  tenant_fixed_income_enabled: boolean;
  tenant_created_at: Date;
}

const KEY_WITH_TENANT = `SELECT k."id", k."tenant_id", k."investor_id", k."name", k."environment", k."public_key",
    k."secret_hash", k."status", k."expires_at", k."revoked_at", k."metadata", k."created_at",
    t."name" AS "tenant_name", t."products" AS "tenant_products",
    t."fixed_income_enabled" AS "tenant_fixed_income_enabled", t."created_at" AS "tenant_created_at"
  FROM "api_keys" k INNER JOIN "tenants" t ON t."id" = k."tenant_id"
  WHERE k."public_key" = $1`;

/** Tenants and their API keys. Used by support tooling (CLI), auth, and the API keys surface. */
@Injectable()
export class TenancyService {
  constructor(
    @InjectRepository(TenantEntity) private readonly tenants: Repository<TenantEntity>,
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
  ) {}

  async createTenant(
    name: string,
    products: Product[],
    fixedIncomeEnabled: boolean,
  ): Promise<{ tenant: TenantEntity; test: CreatedKey; live: CreatedKey }> {
    return this.tenants.manager.transaction(async (manager) => {
      const tenant = await manager.save(
        manager.create(TenantEntity, {
          id: newId('tenant'),
          name,
          products: [...new Set(products)],
          fixed_income_enabled: fixedIncomeEnabled,
        }),
      );
      const test = await this.createKey(
        { tenantId: tenant.id, environment: 'TEST', name: 'default test key' },
        manager,
      );
      const live = await this.createKey(
        { tenantId: tenant.id, environment: 'PRODUCTION', name: 'default live key' },
        manager,
      );
      return { tenant, test, live };
    });
  }

  async findTenant(id: string): Promise<TenantEntity | null> {
    return this.tenants.findOneBy({ id });
  }

  /** Tenants whose name starts with `prefix` (oldest first), at most `limit`. */
  async listTenantsByNamePrefix(prefix: string, limit: number): Promise<TenantEntity[]> {
    return this.tenants
      .createQueryBuilder('t')
      .where(`starts_with(t.name, :prefix)`, { prefix })
      .orderBy('t.created_at', 'ASC')
      .addOrderBy('t.id', 'ASC')
      .limit(limit)
      .getMany();
  }

  async updateTenant(
    id: string,
    change: { enable?: Product[]; disable?: Product[]; fixedIncomeEnabled?: boolean },
  ): Promise<TenantEntity> {
    const tenant = await this.findTenant(id);
    if (!tenant) {
      throw ServiceError.notFound('tenant', id);
    }
    const products = new Set(tenant.products);
    change.enable?.forEach((p) => products.add(p));
    change.disable?.forEach((p) => products.delete(p));
    tenant.products = [...products].sort();
    if (change.fixedIncomeEnabled !== undefined) {
      tenant.fixed_income_enabled = change.fixedIncomeEnabled;
    }
    return this.tenants.save(tenant);
  }

  async createKey(input: CreateKeyInput, manager: EntityManager = this.keys.manager): Promise<CreatedKey> {
    const mode = input.environment === 'TEST' ? 'test' : 'live';
    const secret = `sk_${mode}_${newSecret(32)}`;
    const key = await manager.save(
      manager.create(ApiKeyEntity, {
        id: newId('apiKey'),
        tenant_id: input.tenantId,
        investor_id: input.investorId ?? null,
        name: input.name ?? '',
        environment: input.environment,
        public_key: `pk_${mode}_${newSecret(18)}`,
        secret_hash: hashSecret(secret),
        status: 'active',
        expires_at: input.expiresAt ?? null,
        revoked_at: null,
        metadata: input.metadata ?? {},
      }),
    );
    return { key, secret };
  }

  async findKey(
    id: string,
    scope?: { tenantId: string; investorId?: string },
    manager: EntityManager = this.keys.manager,
  ): Promise<ApiKeyEntity | null> {
    return manager.findOneBy(ApiKeyEntity, {
      id,
      ...(scope ? { tenant_id: scope.tenantId } : {}),
      ...(scope?.investorId ? { investor_id: scope.investorId } : {}),
    });
  }

  async listInvestorKeys(tenantId: string, investorId: string, livemode: boolean): Promise<ApiKeyEntity[]> {
    return this.keys.find({
      where: { tenant_id: tenantId, investor_id: investorId, environment: livemode ? 'PRODUCTION' : 'TEST' },
      order: { created_at: 'DESC', id: 'DESC' },
    });
  }

  /** One cursor page of an investor's keys of one mode, newest first. */
  investorKeysPage(
    tenantId: string,
    investorId: string,
    livemode: boolean,
    query: CursorPageQuery,
  ): Promise<CursorPage<ApiKeyEntity>> {
    const keys = this.keys
      .createQueryBuilder('k')
      .where('k.tenant_id = :tenantId', { tenantId })
      .andWhere('k.investor_id = :investorId', { investorId })
      .andWhere('k.environment = :environment', { environment: livemode ? 'PRODUCTION' : 'TEST' });
    return paginateByCursor(keys, query);
  }

  /** Revokes a key; revoking twice is harmless and keeps the first revocation time. */
  async revokeKey(
    id: string,
    scope?: { tenantId: string; investorId?: string },
    manager: EntityManager = this.keys.manager,
  ): Promise<ApiKeyEntity> {
    const key = await this.findKey(id, scope, manager);
    if (!key) {
      throw ServiceError.notFound('api_key', id);
    }
    if (key.status !== 'revoked') {
      key.status = 'revoked';
      key.revoked_at = new Date();
      await manager.update(ApiKeyEntity, { id: key.id }, { status: 'revoked', revoked_at: key.revoked_at });
    }
    return key;
  }

  /** Auth look-up: the key with its tenant, in one query. */
  /**
   * The key a public key names, with its tenant. Authentication reloads every key it serves once
   * per AUTH_CACHE_TTL_MS: one named statement (prepared once per connection) straight to the
   * driver, the rows built here, since TypeORM's query builder and entity hydration cost several
   * times the query itself on the process serving requests.
   */
  async findKeyWithTenant(publicKey: string): Promise<{ key: ApiKeyEntity; tenant: TenantEntity } | null> {
    const pool = (this.keys.manager.connection.driver as unknown as { master: Pool }).master;
    const { rows } = await pool.query<KeyWithTenantRow>({
      name: 'tenancy_key_with_tenant',
      text: KEY_WITH_TENANT,
      values: [publicKey],
    });
    const row = rows[0];
    if (!row) {
      return null;
    }
    const tenant = Object.assign(new TenantEntity(), {
      id: row.tenant_id,
      name: row.tenant_name,
      products: row.tenant_products,
      fixed_income_enabled: row.tenant_fixed_income_enabled,
      created_at: row.tenant_created_at,
    });
    const key = Object.assign(new ApiKeyEntity(), {
      id: row.id,
      tenant_id: row.tenant_id,
      investor_id: row.investor_id,
      name: row.name,
      environment: row.environment,
      public_key: row.public_key,
      secret_hash: row.secret_hash,
      status: row.status,
      expires_at: row.expires_at,
      revoked_at: row.revoked_at,
      metadata: row.metadata,
      created_at: row.created_at,
      tenant,
    });
    return { key, tenant };
  }

  static statusOf(key: ApiKeyEntity, now = Date.now()): PublicKeyStatus {
    if (key.status === 'revoked') {
      return 'revoked';
    }
    return key.expires_at && key.expires_at.getTime() <= now ? 'expired' : 'active';
  }
}
