import { Injectable } from '@nestjs/common';
import { AppConfig } from 'src/core/config/app-config.service';
import { ApiKeyEntity } from 'src/core/tenancy/api-key.entity';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';

interface Entry<T> {
  value: T;
  loadedAt: number;
}

/**
 * Per-process cache of API keys and tenants so authentication costs no database round trip on
 * most requests. Entries live AUTH_CACHE_TTL_MS (≤ 5 s), which bounds how long a revocation
 * made by another process, or a product switched by support, takes to apply everywhere.
 * Unknown keys are not cached, so a key created elsewhere works at once.
 */
@Injectable()
export class CredentialCache {
  private readonly keys = new Map<string, Entry<{ key: ApiKeyEntity; tenant: TenantEntity }>>();
  private readonly tenants = new Map<string, Entry<TenantEntity | null>>();
  private readonly pending = new Map<string, Promise<{ key: ApiKeyEntity; tenant: TenantEntity } | null>>();
  private readonly ttlMs: number;

  constructor(
    private readonly tenancy: TenancyService,
    config: AppConfig,
  ) {
    this.ttlMs = config.get('AUTH_CACHE_TTL_MS');
  }

  async keyByPublicKey(publicKey: string): Promise<{ key: ApiKeyEntity; tenant: TenantEntity } | null> {
    const now = Date.now();
    const hit = this.keys.get(publicKey);
    if (hit && now - hit.loadedAt < this.ttlMs) {
      return hit.value;
    }
    // Collapse concurrent misses for one key into a single query.
    let load = this.pending.get(publicKey);
    if (!load) {
      load = this.tenancy.findKeyWithTenant(publicKey).finally(() => this.pending.delete(publicKey));
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
