import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';
import { ERROR_CATALOG, ErrorCode, ERROR_CODES } from 'src/core/errors/error-catalog';

/** Host used in documented examples so the committed spec does not depend on the environment. */
export const EXAMPLE_BASE_URL = 'http://localhost:3000';

export class ErrorBody {
  @ApiProperty({
    enum: [...new Set(Object.values(ERROR_CATALOG).map((e) => e.type))],
    example: 'invalid_request_error',
  })
  type: string;

  @ApiProperty({ enum: ERROR_CODES, example: 'SVC-400-001', pattern: '^SVC-\\d{3}-\\d{3}$' })
  code: ErrorCode;

  @ApiProperty({ example: 'Invalid limit: must not be greater than 100.' })
  message: string;

  @ApiPropertyOptional({ description: 'Field path of the invalid input.', example: 'limit' })
  param?: string;

  @ApiPropertyOptional({ format: 'uri', example: `${EXAMPLE_BASE_URL}/docs/errors#SVC-400-001` })
  doc_url?: string;

  @ApiPropertyOptional({
    description:
      "This request's page in the partner dashboard's request log (`GET /v1/request-logs/{request_id}`). " +
      'A request is recorded when its credentials name a known API key, accepted or refused (a wrong ' +
      "secret, a revoked or expired key: recorded under that key's tenant and mode, never the secret), " +
      'also when it failed before authentication (a malformed body, an unknown route). A request ' +
      'whose credentials name no known key (none sent, an unreadable Authorization header, an unknown ' +
      'public key) has no tenant and is never recorded: its link opens a page saying so.',
    format: 'uri',
    example: `${EXAMPLE_BASE_URL}/dashboard/logs/req_9xq2ZtM1Xb3l0pV7aQmN4w`,
  })
  request_log_url?: string;
}

export class ErrorEnvelopeDto {
  @ApiProperty({ type: ErrorBody })
  error: ErrorBody;
}

export class LegacyErrorDto {
  @ApiProperty({ enum: ['error'], example: 'error' })
  status: 'error';

  @ApiProperty({ enum: ['PRODUCT_NOT_ENABLED'], example: 'PRODUCT_NOT_ENABLED' })
  code: 'PRODUCT_NOT_ENABLED';

  @ApiProperty({
    example: 'The market_data product is not enabled for this tenant. Contact support to enable it.',
  })
  message: string;
}

export function errorExample(code: ErrorCode, param?: string, message?: string) {
  return {
    error: {
      type: ERROR_CATALOG[code].type,
      code,
      message: message ?? ERROR_CATALOG[code].message,
      ...(param ? { param } : {}),
      doc_url: `${EXAMPLE_BASE_URL}/docs/errors#${code}`,
      request_log_url: `${EXAMPLE_BASE_URL}/dashboard/logs/req_9xq2ZtM1Xb3l0pV7aQmN4w`,
    },
  };
}

/** Documents the error responses a route can give, one example per code, grouped by status. */
export function ApiErrors(...codes: ErrorCode[]): MethodDecorator & ClassDecorator {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CATALOG[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return applyDecorators(
    ...[...byStatus.entries()].map(([status, group]) =>
      ApiResponse({
        status,
        description: group.map((c) => `${c}: ${ERROR_CATALOG[c].title}`).join('; '),
        type: ErrorEnvelopeDto,
        examples: Object.fromEntries(
          group.map((c) => [c, { summary: ERROR_CATALOG[c].title, value: errorExample(c) }]),
        ),
      }),
    ),
  );
}
