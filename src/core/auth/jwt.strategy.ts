import { generateKeyPairSync } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { passportJwtSecret } from 'jwks-rsa';
import { ExtractJwt, Strategy, StrategyOptionsWithoutRequest } from 'passport-jwt';
import { AppConfig } from 'src/core/config/app-config.service';
import { CredentialCache } from 'src/core/auth/credential-cache';
import type { Principal } from 'src/core/auth/principal';

interface TokenClaims {
  sub?: string;
  tenant_id?: unknown;
  investor_id?: unknown;
  livemode?: unknown;
}

/**
 * Without a configured key no token can be valid; an ephemeral key nobody holds keeps the
 * strategy registered (so Basic-or-Bearer stays one code path) while refusing every token.
 */
function unusablePublicKey(): string {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .publicKey.export({ type: 'spki', format: 'pem' })
    .toString();
}

/**
 * Bearer JWT from the partner's identity provider, verified against the configured issuer,
 * audience and key (PEM or JWKS). Claims: tenant_id (required), investor_id, livemode.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    config: AppConfig,
    private readonly cache: CredentialCache,
  ) {
    const jwksUrl = config.get('JWT_JWKS_URL');
    const options: StrategyOptionsWithoutRequest = {
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      issuer: config.get('JWT_ISSUER'),
      audience: config.get('JWT_AUDIENCE'),
      algorithms: ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'PS256'],
      ...(jwksUrl
        ? { secretOrKeyProvider: passportJwtSecret({ jwksUri: jwksUrl, cache: true, rateLimit: true }) }
        : { secretOrKey: config.get('JWT_PUBLIC_KEY') ?? unusablePublicKey() }),
    };
    super(options);
  }

  async validate(claims: TokenClaims): Promise<Principal | false> {
    if (typeof claims.tenant_id !== 'string') {
      return false;
    }
    const investorId = typeof claims.investor_id === 'string' ? claims.investor_id : null;
    const tenant = await this.cache.tenantById(claims.tenant_id);
    if (!tenant) {
      return false;
    }
    return {
      tenantId: tenant.id,
      livemode: claims.livemode === true,
      keyId: `jwt:${tenant.id}:${claims.sub ?? investorId ?? 'tenant'}`,
      investorId,
      products: new Set(tenant.products),
      fixedIncomeEnabled: tenant.fixed_income_enabled,
      method: 'jwt',
    };
  }
}
