import { CanActivate, ExecutionContext, Injectable, NotFoundException } from '@nestjs/common';
import type { Request } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppConfig } from 'src/core/config/app-config.service';
import { SandboxAdminTokenError } from 'src/modules/sandbox-admin/sandbox-admin-errors';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * The sandbox admin API exists only on sandbox deployments with SANDBOX_ADMIN_TOKEN set: anywhere
 * else its routes answer 404 as if they did not exist. The token is compared in constant time
 * (both sides hashed first, so their lengths leak nothing either). It guards /v1/sandbox/* alone;
 * API keys and JWTs mean nothing here.
 */
@Injectable()
export class SandboxAdminGuard implements CanActivate {
  private readonly expected: Buffer | undefined;

  constructor(config: AppConfig) {
    const token = config.get('SANDBOX_ADMIN_TOKEN');
    this.expected = token && !config.isProduction ? digest(token) : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    if (!this.expected) {
      throw new NotFoundException();
    }
    const header = req.headers.authorization ?? '';
    const match = /^Bearer ([\x21-\x7e]{1,512})$/.exec(header);
    if (!match || !timingSafeEqual(digest(match[1]), this.expected)) {
      throw new SandboxAdminTokenError();
    }
    return true;
  }
}
