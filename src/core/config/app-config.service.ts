import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Environment } from 'src/core/config/environment';

/** Typed, read-only access to the validated environment. */
@Injectable()
export class AppConfig {
  constructor(private readonly config: ConfigService<Environment, true>) {}

  get<K extends keyof Environment>(key: K): Environment[K] {
    return this.config.get(key, { infer: true });
  }

  get isProduction(): boolean {
    return this.get('APP_ENV') === 'production';
  }
}
