import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { BasicStrategy as PassportBasic } from 'passport-http';
import { CachedKey, CredentialCache } from 'src/core/auth/credential-cache';
import type { Principal } from 'src/core/auth/principal';
import { secretDigestMatches } from 'src/core/tenancy/secrets';
import { TenancyService } from 'src/core/tenancy/tenancy.service';

/** HTTP Basic: public key as username, secret as password. */
@Injectable()
export class BasicStrategy extends PassportStrategy(PassportBasic, 'basic') {
  constructor(private readonly cache: CredentialCache) {
    super({ passReqToCallback: false });
  }

  /**
   * The principal for a key pair, or false. Answers at once when the key is cached (most
   * requests), with a promise only when it has to be read from the database.
   */
  validate(publicKey: string, secret: string): Principal | false | Promise<Principal | false> {
    if (!BasicStrategy.readable(publicKey)) {
      return BasicStrategy.check(null, secret);
    }
    const found = this.cache.keyByPublicKey(publicKey);
    return found instanceof Promise
      ? found.then((loaded) => BasicStrategy.check(loaded, secret))
      : BasicStrategy.check(found, secret);
  }

  /**
   * The check again on the key read from the database, not from memory: a refusal answered from
   * the cache pays the read an unknown key pays, so a failure costs the same whether the public
   * key exists or not (and a secret rotated by another process works at once).
   */
  async validateAfresh(publicKey: string, secret: string): Promise<Principal | false> {
    if (!BasicStrategy.readable(publicKey)) {
      return BasicStrategy.check(null, secret);
    }
    return BasicStrategy.check(await this.cache.reload(publicKey), secret);
  }

  /**
   * A public key that could exist: at most 128 characters, none of them a control character (a NUL
   * would not even reach PostgreSQL). Others are refused like an unknown key, without a read.
   */
  private static readable(publicKey: string): boolean {
    // eslint-disable-next-line no-control-regex
    return publicKey.length <= 128 && !/[\u0000-\u001f\u007f]/.test(publicKey);
  }

  private static check(found: CachedKey | null, secret: string): Principal | false {
    // Always hash and compare, so unknown, revoked and expired keys cost the same as a wrong secret.
    const matches = secretDigestMatches(secret, found?.secretDigest);
    if (!found || !matches || TenancyService.statusOf(found.key) !== 'active') {
      return false;
    }
    return found.principal;
  }
}
