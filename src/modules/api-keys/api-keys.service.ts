import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { KeyScopeForbiddenError } from 'src/core/auth/auth-errors';
import type { Principal } from 'src/core/auth/principal';
import { CredentialCache } from 'src/core/auth/credential-cache';
import { ServiceError } from 'src/core/errors/service-error';
import { ListEnvelope, listUrl, toList, unixSeconds } from 'src/core/http/envelope';
import type { CursorPageQuery } from 'src/core/http/pagination';
import { isIdOf } from 'src/core/ids/ids';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { ApiKeyEntity } from 'src/core/tenancy/api-key.entity';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { AccountsService } from 'src/modules/accounts/accounts.service';
import type { ApiKeyDto, CreateApiKeyDto, CreatedApiKeyDto } from 'src/modules/api-keys/dto/api-key.dto';

/** The api_key record, fields in the order of the spec's table. */
function toApiKeyRecord(key: ApiKeyEntity): ApiKeyDto {
  return {
    id: key.id,
    object: 'api_key',
    created: unixSeconds(key.created_at),
    livemode: key.environment === 'PRODUCTION',
    account_id: key.investor_id ?? '',
    name: key.name,
    environment: key.environment,
    status: TenancyService.statusOf(key),
    public_key: key.public_key,
    expires_at: key.expires_at ? key.expires_at.toISOString() : null,
    metadata: key.metadata,
  };
}

/**
 * Investor-scoped API keys. Only tenant keys create them; an investor key may list, read and
 * revoke its own investor's keys, and is refused (403) on another investor's.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly tenancy: TenancyService,
    private readonly accounts: AccountsService,
    private readonly cache: CredentialCache,
    private readonly transactions: IdempotentTransaction,
  ) {}

  /** The secret is in this response only; the stored idempotent copy of it is sealed. */
  async create(
    principal: Principal,
    investorId: string,
    dto: CreateApiKeyDto,
    idem: IdempotentRequest | undefined,
  ): Promise<CreatedApiKeyDto> {
    const expiresAt = dto.expires_at ? new Date(dto.expires_at) : null;
    if (expiresAt && expiresAt.getTime() <= Date.now()) {
      throw ServiceError.invalid('expires_at', 'Invalid expires_at: it must be in the future.');
    }
    return this.transactions.run(idem, async (manager) => {
      const account = await this.accounts.findInvestorAccount(principal, investorId, manager, { lock: true });
      if (account.status === 'CLOSED') {
        throw ServiceError.conflict(`Investor ${investorId} is closed; no key can be issued.`);
      }
      const { key, secret } = await this.tenancy.createKey(
        {
          tenantId: principal.tenantId,
          environment: principal.livemode ? 'PRODUCTION' : 'TEST',
          investorId: account.investor_id,
          name: dto.name ?? '',
          expiresAt,
          metadata: dto.metadata ?? {},
        },
        manager,
      );
      return { ...toApiKeyRecord(key), secret };
    });
  }

  async list(
    principal: Principal,
    investorId: string,
    query: CursorPageQuery,
    req: { originalUrl: string },
  ): Promise<ListEnvelope<ApiKeyDto>> {
    this.assertKeyScope(principal, investorId);
    const account = await this.accounts.findInvestorAccount(principal, investorId);
    const page = await this.tenancy.investorKeysPage(
      principal.tenantId,
      account.investor_id,
      principal.livemode,
      query,
    );
    return toList(listUrl(req), page.data.map(toApiKeyRecord), page.hasMore);
  }

  async get(principal: Principal, investorId: string, keyId: string): Promise<ApiKeyDto> {
    return toApiKeyRecord(await this.find(principal, investorId, keyId));
  }

  /** Spec: returns the record, status revoked. Effective at once here, within 5 s everywhere. */
  async revoke(
    principal: Principal,
    investorId: string,
    keyId: string,
    idem: IdempotentRequest | undefined,
  ): Promise<ApiKeyDto> {
    const record = await this.transactions.run(idem, async (manager) => {
      const key = await this.find(principal, investorId, keyId, manager);
      const revoked = await this.tenancy.revokeKey(
        key.id,
        { tenantId: principal.tenantId, investorId },
        manager,
      );
      return toApiKeyRecord(revoked);
    });
    // After commit; should this process die first, caches forget the key within AUTH_CACHE_TTL_MS.
    this.cache.forgetKey(record.public_key);
    return record;
  }

  private async find(
    principal: Principal,
    investorId: string,
    keyId: string,
    manager?: EntityManager,
  ): Promise<ApiKeyEntity> {
    this.assertKeyScope(principal, investorId);
    await this.accounts.findInvestorAccount(principal, investorId, manager);
    const key = isIdOf('apiKey', keyId)
      ? await this.tenancy.findKey(keyId, { tenantId: principal.tenantId, investorId }, manager)
      : null;
    if (!key || key.investor_id !== investorId || (key.environment === 'PRODUCTION') !== principal.livemode) {
      throw ServiceError.notFound('api_key', keyId);
    }
    return key;
  }

  /** Key management of another investor is tenant-level: 403 SVC-403-001 for an investor key. */
  private assertKeyScope(principal: Principal, investorId: string): void {
    if (principal.investorId && principal.investorId !== investorId) {
      throw new KeyScopeForbiddenError('This API key may manage only the keys of its own investor.');
    }
  }
}
