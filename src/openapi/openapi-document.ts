import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { dump } from 'js-yaml';
import {
  boundMetadataMaps,
  boundParameters,
  declareIntegerFormats,
  declareValidatedIntegers,
  describeRequestDefaults,
  inlineNullableReferences,
  publishValidationLimits,
} from 'src/openapi/schema-rules';
import { addStandardResponses } from 'src/openapi/standard-responses';
import { publishLegacyOperations } from 'src/openapi/legacy-operations';
import { LEGACY_ASSET_SEARCH } from 'src/modules/assets/asset-search.docs';
import { AppConfig } from 'src/core/config/app-config.service';

const DESCRIPTION = `Investment API for fintech partners: investors and their accounts, funding, trading,
positions, reference data, documents, webhooks, and the Market Data and Cash Management add-ons.

**Authentication.** HTTP Basic with the API public key as username and the secret as password,
or a Bearer JWT from your identity provider (claims \`tenant_id\`, optional \`investor_id\` and
\`livemode\`). Test keys (\`pk_test_\`) read and write test data only (\`livemode: false\`).

**Versions.** Every route is served under \`/v1\` and under the legacy alias \`/legacy/v1\`; the two
differ only for asset search, which answers the legacy \`{status, data, count}\` shape under the alias:
that is its own operation here, \`GET /legacy/v1/assets/search\` (searchAssetsLegacy).

**Errors.** Every failure is \`{"error": {type, code, message, param, doc_url, request_log_url}}\`;
\`param\` names the field at fault; codes are listed at \`/docs/errors\`. Disabled add-on products
answer 403 with the legacy body \`{"status":"error","code":"PRODUCT_NOT_ENABLED","message":...}\`.

**Idempotency.** Send \`Idempotency-Key\` (1–255 characters) on any POST. Keys are scoped to the
principal that sent them (tenant, mode and the investor scope of the key or token): the same key from
another investor's key or from a tenant-level key is a new request. A repeat within 24 h with
the same body returns the stored response with \`Idempotent-Replayed: true\`; another body gives 409
SVC-409-002; a repeat while the first is running gives 409 SVC-409-003. Failed requests store
nothing, so they may be retried with the same key.

**Rate limits.** Per API key, shared across the whole deployment: a token bucket of 200 requests
refilled at 100 per second by default, so no span of t seconds lets more than 200 + 100 × t
requests through (there are no window edges to straddle). Responses carry \`RateLimit-Limit\` (the
burst), \`RateLimit-Remaining\` and \`RateLimit-Reset\`; a 429 carries \`Retry-After\`. Failed
authentication is limited too: past 20 failures a minute for one public key, or 300 from one client
address, a failed attempt answers 429 SVC-429-001 with \`Retry-After\` (and no RateLimit headers)
instead of 401. Requests with correct credentials are never refused by that limit.

**Request ids.** Every response carries a \`Request-Id\` header (\`req_...\`); quote it to support.

**Input limits.** JSON bodies: \`application/json\` in UTF-8 (no charset, or \`charset=utf-8\`; any other
charset or content type answers 415 SVC-415-001), at most 1 MB (413), nested at most 32 levels of arrays
and objects (400), at most 100 keys per object and 1,000 items per array (400 naming the first field past
the limit). Unknown fields are refused (400), and so is \`null\` for a field not marked nullable (400 naming it:
leave the field out instead), except where a route says null counts as not sent. No string, key, query parameter or path id may contain a NUL byte or a lone UTF-16
surrogate, and \`__proto__\` / \`constructor.prototype\` keys are refused (400 naming the field). The
request line and headers together may take 16 KiB (431 SVC-431-001). Path parameters take at most 128
characters and query parameter values at most 2,048 (400); \`offset\` at most 1,000,000. Headers must
arrive within 10 s and a whole request within 60 s (408 and the connection closed beyond).`;

// eslint-disable-next-line max-lines-per-function -- the document assembled in the order it is published: info, servers, security, tags, then the paths.
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Investment Service API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .setLicense('Proprietary', 'http://localhost:3000/docs')
    .addServer('http://localhost:3000', 'Local sandbox')
    .addBasicAuth({ type: 'http', scheme: 'basic', description: 'API public key as username, secret as password.' }, 'basic')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          'A JWT from your identity provider, verified following RFC8725 (JSON Web Token Best Current ' +
          'Practices): asymmetric signatures only (RS256, RS384, RS512, ES256, ES384, PS256; never `none` or ' +
          'HMAC), the configured issuer and audience required, `exp` and `nbf` honoured. Claims: `tenant_id` ' +
          '(required), `investor_id`, `livemode`.',
      },
      'bearer',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        // Not a JWT: without a format of its own the generator would publish `bearerFormat: JWT`.
        bearerFormat: 'opaque',
        description:
          'Sandbox admin API only (/v1/sandbox/*): an opaque bearer token, not a JWT. Send the deployment’s ' +
          'SANDBOX_ADMIN_TOKEN as `Authorization: Bearer <token>`; it is compared with the configured value in ' +
          'constant time and carries no claims. Sandbox deployments only.',
      },
      'sandboxAdmin',
    )
    .addSecurityRequirements('basic')
    .addSecurityRequirements('bearer')
    .build();
  declareValidatedIntegers();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  document.components ??= {};
  // The one server listed is the local sandbox, for partners trying the API (not an internal host).
  document.servers = (document.servers ?? []).map((server) => ({ ...server, 'x-internal': false }));
  inlineNullableReferences(document);
  publishValidationLimits(document);
  boundMetadataMaps(document);
  declareIntegerFormats(document);
  boundParameters(document);
  describeRequestDefaults(document);
  declareTags(document);
  const idempotencyKey = {
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header' as const,
      required: false,
      description:
        'Makes the POST safe to retry for 24 h (1 to 255 characters), for the principal that sent it (tenant, ' +
        'mode and investor scope of the key or token; another principal using the same key makes a new request). The response is stored (encrypted) in the ' +
        'same transaction as the change: a retry after a timeout or a crash replays it (`Idempotent-Replayed: ' +
        'true`, same ids) or, when nothing was committed, runs the request once. Another body with the same key: ' +
        '409 SVC-409-002; a repeat while the first still runs: 409 SVC-409-003.',
      schema: { type: 'string', maxLength: 255 },
      example: 'b9d1f4c2-7e3a-4f2a-9c51-3c8f0d1e2a47',
    },
  };
  if (addStandardResponses(document)) {
    document.components.parameters = { ...document.components.parameters, ...idempotencyKey };
  }
  // Last: the legacy operations copy the finished /v1 ones (errors, headers, security).
  publishLegacyOperations(document, app.get(AppConfig).get('LEGACY_BASE_PATH').replace(/\/$/, ''), [
    LEGACY_ASSET_SEARCH,
  ]);
  return document;
}

/** What each surface group covers, shown beside its operations in Swagger UI. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  'API Keys': 'Keys scoped to one investor: issue, list, read and revoke.',
  Accounts: 'Investment accounts (account-style records) and their lifecycle actions.',
  Assets: 'Reference data: equities, ETFs, crypto pairs, Treasuries and corporate bonds; search and lookup.',
  Compliance: 'KYC: requirements, submission and the sandbox review helpers.',
  Disclosures: 'The agreements investors accept, and their acceptance.',
  'Document Management': 'KYC documents: upload, list, read and download.',
  Events: 'Every event the service emitted, to reconcile webhook deliveries.',
  'Funding Sources': 'Investors\u2019 bank accounts, linked for deposits and withdrawals.',
  Investors: 'Investors (envelope style) and the application data behind their account.',
  'Market Data': 'Add-on: quotes, bars and snapshots.',
  Markets: 'Markets, their session hours, clocks and trading calendars.',
  'Sandbox admin':
    'Sandbox deployments only, with the operator token: tenants for QA runs (create with keys, change, erase).',
  'Test clock': 'Sandbox: each tenant\u2019s test-mode clock; moving it runs the jobs that fall due.',
  Transfers: 'Deposits and withdrawals of an investor (envelope views of wallet transactions).',
  Wallet: 'Account cash: deposits, withdrawals, balances and wallet transactions (account style).',
  'Webhook sinks':
    'Sandbox: receivers hosted by the service (test mode) that record every delivery, to see events before ' +
    'you have a receiver and to verify signatures.',
  Webhooks: 'Webhook endpoints, event types and signing secrets.',
};

/** Every tag an operation uses, declared at the top level (sorted), as OpenAPI tooling expects. */
function declareTags(document: OpenAPIObject): void {
  const used = new Set<string>();
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item as Record<string, { tags?: string[] }>)) {
      for (const tag of operation?.tags ?? []) {
        used.add(tag);
      }
    }
  }
  const declared = new Map((document.tags ?? []).map((t) => [t.name, t]));
  document.tags = [...used]
    .sort()
    .map((name) => declared.get(name) ?? { name, description: TAG_DESCRIPTIONS[name] ?? `${name} operations.` });
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(sortKeys);
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** Stable YAML: keys sorted, so the committed file diffs cleanly. */
export function toStableYaml(document: OpenAPIObject): string {
  return dump(sortKeys(JSON.parse(JSON.stringify(document))), { lineWidth: 120, noRefs: true });
}
