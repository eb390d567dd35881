import { validateEnvironment } from 'src/core/config/environment';

describe('validateEnvironment', () => {
  it('fills sandbox defaults when nothing is set', () => {
    const env = validateEnvironment({});
    expect(env.APP_ENV).toBe('sandbox');
    expect(env.PORT).toBe(3000);
    expect(env.LEGACY_BASE_PATH).toBe('/legacy/v1');
    expect(env.RATE_LIMIT_PER_SECOND).toBe(100);
    expect(env.RATE_LIMIT_BURST).toBe(200);
  });

  it('converts numeric and boolean strings', () => {
    const env = validateEnvironment({ PORT: '8080', MIGRATE_ON_START: 'false', RATE_LIMIT_BURST: '5' });
    expect(env.PORT).toBe(8080);
    expect(env.MIGRATE_ON_START).toBe(false);
    expect(env.RATE_LIMIT_BURST).toBe(5);
  });

  it('stops with one line naming each malformed value', () => {
    let message = '';
    try {
      validateEnvironment({ PORT: 'eighty', DATABASE_URL: 'mysql://x', APP_ENV: 'staging' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain('PORT');
    expect(message).toContain('DATABASE_URL');
    expect(message).toContain('APP_ENV');
  });

  it('rejects a JWT key that is not PEM', () => {
    expect(() => validateEnvironment({ JWT_PUBLIC_KEY: 'not-a-key' })).toThrow(/JWT_PUBLIC_KEY/);
  });

  it('requires the encryption keys in production and never echoes a secret setting', () => {
    let message = '';
    try {
      validateEnvironment({
        APP_ENV: 'production',
        WEBHOOK_SECRET_KEY: 'w'.repeat(40),
        DATA_ENCRYPTION_KEY: 'too-short-secret-value',
        DATABASE_URL: 'mysql://admin:hunter2@db/x',
      });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('DATA_ENCRYPTION_KEY: must be set in production, at least 32 characters');
    expect(message).toContain('DATABASE_URL');
    expect(message).not.toContain('too-short-secret-value');
    expect(message).not.toContain('hunter2');
    expect(() => validateEnvironment({ APP_ENV: 'production', WEBHOOK_SECRET_KEY: 'w'.repeat(40) })).toThrow(
      /DATA_ENCRYPTION_KEY/,
    );
    const env = validateEnvironment({
      APP_ENV: 'production',
      WEBHOOK_SECRET_KEY: 'w'.repeat(40),
      DATA_ENCRYPTION_KEY: 'd'.repeat(40),
    });
    expect(env.DATA_ENCRYPTION_KEY).toBe('d'.repeat(40));
  });
});
