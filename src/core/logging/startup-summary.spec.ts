import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { AppLogger, createPino, setLogDestination } from 'src/core/logging/app-logger';
import { readSandboxCredentials, startupSummary } from 'src/core/logging/startup-summary';

describe('start-up output', () => {
  it('logs Nest’s route mapping and module lines at debug, everything else as it was', () => {
    const info = capture('info');
    info.logger.log('Mapped {/v1/investors, POST} route', 'RouterExplorer');
    info.logger.log('AppModule dependencies initialized', 'InstanceLoader');
    info.logger.log('Nest application successfully started', 'NestApplication');
    info.logger.log('Listening on http://localhost:3000', 'Bootstrap');
    info.logger.warn('a warning', 'RouterExplorer');
    expect(info.lines().map((l) => [l.level, l.msg])).toEqual([
      [30, 'Listening on http://localhost:3000'],
      [40, 'a warning'],
    ]);
    const debug = capture('debug');
    debug.logger.log('Mapped {/v1/investors, POST} route', 'RouterExplorer');
    expect(debug.lines().map((l) => [l.level, l.context, l.msg])).toEqual([
      [20, 'RouterExplorer', 'Mapped {/v1/investors, POST} route'],
    ]);
  });

  it('ends with the URLs of the API, its docs and the dashboard, then the saved key pairs', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'startup-')), 'credentials.json');
    const saved = {
      tenant_id: 'ten_1',
      keys: {
        test: { id: 'apk_t', public_key: 'pk_test_a', secret: 'sk_test_b' },
        live: { id: 'apk_l', public_key: 'pk_live_c', secret: 'sk_live_d' },
      },
    };
    writeFileSync(file, JSON.stringify(saved));
    const credentials = readSandboxCredentials(file);
    expect(credentials).toEqual(saved);
    const text = startupSummary({
      apiUrl: 'http://localhost:3000/',
      dashboardUrl: 'http://localhost:3000/dashboard',
      credentials,
      credentialsFile: file,
    });
    expect(text.split('\n').filter(Boolean)).toEqual([
      '  API         http://localhost:3000/v1',
      '  Swagger UI  http://localhost:3000/docs   (OpenAPI: http://localhost:3000/docs/openapi.json)',
      '  Dashboard   http://localhost:3000/dashboard',
      '  Tenant      ten_1',
      '  Test keys   pk_test_a:sk_test_b',
      '  Live keys   pk_live_c:sk_live_d',
      `  Saved in    ${file}`,
      '  Try: curl -u pk_test_a:sk_test_b http://localhost:3000/v1/webhooks/event-types',
    ]);
  });

  it('prints the URLs alone when no credentials were saved (or the file is not theirs)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'startup-')), 'other.json');
    writeFileSync(file, '{"something":"else"}');
    expect(readSandboxCredentials(file)).toBeUndefined();
    expect(readSandboxCredentials(undefined)).toBeUndefined();
    const text = startupSummary({
      apiUrl: 'http://127.0.0.1:8080',
      dashboardUrl: 'http://127.0.0.1:8080/dashboard',
    });
    expect(text).not.toContain('keys');
    expect(text).toContain('http://127.0.0.1:8080/docs');
  });
});

function capture(level: string): { logger: AppLogger; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  setLogDestination(
    new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk.toString());
        done();
      },
    }),
  );
  const logger = new AppLogger(createPino(level));
  setLogDestination(undefined);
  return {
    logger,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}
