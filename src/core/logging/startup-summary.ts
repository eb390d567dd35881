import { existsSync, readFileSync } from 'node:fs';

/**
 * Nest's own start-up lines (modules initialised, one line per mapped route, "starting",
 * "started"): hundreds of lines a person starting the API does not need, so they are logged at
 * debug (LOG_LEVEL=debug shows them).
 */
export const STARTUP_DETAIL_CONTEXTS: ReadonlySet<string> = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

interface SavedKey {
  public_key: string;
  secret: string;
}

/** What the sandbox's `sandbox:init` wrote (.sandbox-credentials.json). */
export interface SandboxCredentials {
  tenant_id: string;
  keys: { test: SavedKey; live: SavedKey };
}

/** The saved demo credentials, or undefined when the file is absent or not in that shape. */
export function readSandboxCredentials(file: string | undefined): SandboxCredentials | undefined {
  if (!file || !existsSync(file)) {
    return undefined;
  }
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<SandboxCredentials>;
    return saved.tenant_id && saved.keys?.test?.public_key && saved.keys.live?.public_key
      ? (saved as SandboxCredentials)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The last thing the API prints once it listens (sandbox): where the API, its docs and the
 * dashboard are, and the demo tenant's key pairs when the sandbox script saved them.
 */
export function startupSummary(input: {
  apiUrl: string;
  dashboardUrl: string;
  credentials?: SandboxCredentials;
  credentialsFile?: string;
}): string {
  const api = input.apiUrl.replace(/\/$/, '');
  const lines = [
    '',
    `  API         ${api}/v1`,
    `  Swagger UI  ${api}/docs   (OpenAPI: ${api}/docs/openapi.json)`,
    `  Dashboard   ${input.dashboardUrl}`,
  ];
  const c = input.credentials;
  if (c) {
    lines.push(
      `  Tenant      ${c.tenant_id}`,
      `  Test keys   ${c.keys.test.public_key}:${c.keys.test.secret}`,
      `  Live keys   ${c.keys.live.public_key}:${c.keys.live.secret}`,
      `  Saved in    ${input.credentialsFile}`,
      '',
      `  Try: curl -u ${c.keys.test.public_key}:${c.keys.test.secret} ${api}/v1/webhooks/event-types`,
    );
  }
  lines.push('');
  return lines.join('\n');
}
