import { Injectable } from '@nestjs/common';
import type { Principal } from 'src/core/auth/principal';
import { AppConfig } from 'src/core/config/app-config.service';
import { ApiKeyEntity } from 'src/core/tenancy/api-key.entity';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';

interface Entry<T> {
  value: T;
  loadedAt: number;
}

/**
 * A key as authentication uses it: the rows, the principal its requests run as (built once per
 * load and shared by those requests, so it is never modified), and the stored secret hash as
 * bytes, ready for a constant-time comparison.
 */
export interface CachedKey {
  key: ApiKeyEntity;
  tenant: TenantEntity;
  principal: Principal;
  secretDigest: Buffer;
}

function cachedKey(key: ApiKeyEntity, tenant: TenantEntity): CachedKey {
  return {
    key,
    tenant,
    principal: Object.freeze({
      tenantId: tenant.id,
      livemode: key.environment === 'PRODUCTION',
      keyId: key.id,
      investorId: key.investor_id,
      products: new Set(tenant.products),
      fixedIncomeEnabled: tenant.fixed_income_enabled,
      method: 'basic' as const,
    }),
    secretDigest: Buffer.from(key.secret_hash, 'hex'),
  };
}

/**
 * Per-process cache of API keys and tenants so authentication costs no database round trip on
 * most requests. Entries live AUTH_CACHE_TTL_MS (≤ 5 s), which bounds how long a revocation
 * made by another process, or a product switched by support, takes to apply everywhere.
 * Unknown keys are not cached, so a key created elsewhere works at once.
 */
@Injectable()
export class CredentialCache {
  private readonly keys = new Map<string, Entry<CachedKey>>();
  private readonly tenants = new Map<string, Entry<TenantEntity | null>>();
  private readonly pending = new Map<string, Promise<CachedKey | null>>();
  private readonly ttlMs: number;

  constructor(
    private readonly tenancy: TenancyService,
    config: AppConfig,
  ) {
    this.ttlMs = config.get('AUTH_CACHE_TTL_MS');
  }

  /**
   * The key from memory when it is there and fresh, else a promise of it from the database: a
   * hit answers without a promise, so most requests authenticate without a microtask.
   */
  keyByPublicKey(publicKey: string, now = Date.now()): CachedKey | Promise<CachedKey | null> {
    const hit = this.keys.get(publicKey);
    if (hit && now - hit.loadedAt < this.ttlMs) {
      return hit.value;
    }
    return this.load(publicKey, now);
  }

  /** The key read from the database now, whatever the cache holds (the cache takes the result). */
  reload(publicKey: string): Promise<CachedKey | null> {
    return this.load(publicKey, Date.now());
  }

  private async load(publicKey: string, now: number): Promise<CachedKey | null> {
    // Collapse concurrent misses for one key into a single query.
    let load = this.pending.get(publicKey);
    if (!load) {
      load = this.tenancy
        .findKeyWithTenant(publicKey)
        .then((found) => (found ? cachedKey(found.key, found.tenant) : null))
        .finally(() => this.pending.delete(publicKey));
      this.pending.set(publicKey, load);
    }
    const value = await load;
    if (value) {
      this.keys.set(publicKey, { value, loadedAt: now });
      if (this.keys.size > 50_000) {
        this.keys.clear();
      }
    } else {
      this.keys.delete(publicKey);
    }
    return value;
  }

  /** The key as last loaded, fresh or not, without a query (null when it is not in memory). */
  peek(publicKey: string): CachedKey | null {
    return this.keys.get(publicKey)?.value ?? null;
  }

  async tenantById(id: string): Promise<TenantEntity | null> {
    const now = Date.now();
    const hit = this.tenants.get(id);
    if (hit && now - hit.loadedAt < this.ttlMs) {
      return hit.value;
    }
    const tenant = await this.tenancy.findTenant(id);
    this.tenants.set(id, { value: tenant, loadedAt: now });
    return tenant;
  }

  /** Drops a key at once in this process (revocation here); other processes follow within the TTL. */
  forgetKey(publicKey: string): void {
    this.keys.delete(publicKey);
  }

  forgetTenant(id: string): void {
    this.tenants.delete(id);
    for (const [publicKey, entry] of this.keys) {
      if (entry.value.tenant.id === id) {
        this.keys.delete(publicKey);
      }
    }
  }
}
