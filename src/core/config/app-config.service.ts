import { Injectable } from '@nestjs/common';
import { Environment, validateEnvironment } from 'src/core/config/environment';

/**
 * Typed, read-only access to the validated environment. Validation runs when the app (or
 * CLI) is created, not when modules are imported, so a bad value fails the boot with one
 * line naming it, and tests can set variables before creating an app.
 */
@Injectable()
export class AppConfig {
  private readonly env: Environment = validateEnvironment(process.env);

  get<K extends keyof Environment>(key: K): Environment[K] {
    return this.env[key];
  }

  get isProduction(): boolean {
    return this.get('APP_ENV') === 'production';
  }
}
