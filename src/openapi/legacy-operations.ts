import type { OpenAPIObject } from '@nestjs/swagger';
import type { OperationObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

type Json = Record<string, any>;

/**
 * An operation the legacy deployment answers in a shape of its own (spec, Versioning: some endpoints
 * keep an older shape beside the envelope style). The route and its handler are the `/v1` ones; the
 * legacy alias is a rewrite in front of the router, so Nest's scanner never sees it.
 */
export interface LegacyOperation {
  /** Path below the version root, as in the spec (`/assets/search`). */
  path: string;
  method: 'get';
  operationId: string;
  summary: string;
  description: string;
  parameters: Json[];
  /** The 200 answer: its description and the component schema it returns. */
  response: { description: string; schema: string };
}

/**
 * Every route is served under the legacy alias as under `/v1`. Where the alias answers another
 * shape, the document publishes it as an operation of its own at `{legacyPrefix}{path}`: the finished
 * `/v1` operation's tags, security, headers and error answers, with the legacy parameters and 200
 * schema (the parameters are published as written: the document's schema rules have run).
 */
export function publishLegacyOperations(
  document: OpenAPIObject,
  legacyPrefix: string,
  operations: LegacyOperation[],
): void {
  for (const legacy of operations) {
    const current = (document.paths[`/v1${legacy.path}`] as Json | undefined)?.[legacy.method] as Json | undefined;
    if (!current) {
      throw new Error(`No /v1${legacy.path} ${legacy.method} operation to publish a legacy shape of`);
    }
    const operation = JSON.parse(JSON.stringify(current)) as OperationObject;
    operation.operationId = legacy.operationId;
    operation.summary = legacy.summary;
    operation.description = legacy.description;
    operation.parameters = legacy.parameters as OperationObject['parameters'];
    operation.responses['200'] = {
      ...operation.responses['200'],
      description: legacy.response.description,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${legacy.response.schema}` } } },
    };
    document.paths[`${legacyPrefix}${legacy.path}`] = { [legacy.method]: operation };
  }
}
