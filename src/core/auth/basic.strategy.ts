import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { BasicStrategy as PassportBasic } from 'passport-http';
import { CredentialCache } from 'src/core/auth/credential-cache';
import type { Principal } from 'src/core/auth/principal';
import { secretMatches } from 'src/core/tenancy/secrets';
import { TenancyService } from 'src/core/tenancy/tenancy.service';

/** HTTP Basic: public key as username, secret as password. */
@Injectable()
export class BasicStrategy extends PassportStrategy(PassportBasic, 'basic') {
  constructor(private readonly cache: CredentialCache) {
    super({ passReqToCallback: false });
  }

  async validate(publicKey: string, secret: string): Promise<Principal | false> {
    const found = publicKey.length <= 128 ? await this.cache.keyByPublicKey(publicKey) : null;
    // Always hash and compare, so unknown, revoked and expired keys cost the same as a wrong secret.
    const matches = secretMatches(secret, found?.key.secret_hash);
    if (!found || !matches || TenancyService.statusOf(found.key) !== 'active') {
      return false;
    }
    const { key, tenant } = found;
    return {
      tenantId: tenant.id,
      livemode: key.environment === 'PRODUCTION',
      keyId: key.id,
      investorId: key.investor_id,
      products: new Set(tenant.products),
      fixedIncomeEnabled: tenant.fixed_income_enabled,
      method: 'basic',
    };
  }
}
