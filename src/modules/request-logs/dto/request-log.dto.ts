import { ApiProperty } from '@nestjs/swagger';

export const HTTP_METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'] as const;

export class RequestLogDto {
  @ApiProperty({
    description: 'The request id: the `Request-Id` response header and the end of `request_log_url`.',
    example: 'req_9xq2ZtM1Xb3l0pV7aQmN4w',
  })
  id: string;

  @ApiProperty({ enum: ['request_log'], example: 'request_log' })
  object: 'request_log';

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 0,
    maximum: 253402300799,
    description: 'Unix seconds when the request arrived (real time, never the test clock).',
    example: 1763790000,
  })
  created: number;

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    description: 'When the request arrived, with milliseconds.',
    example: '2026-11-22T10:15:30.123Z',
  })
  created_at: string;

  @ApiProperty({ enum: HTTP_METHODS, example: 'POST' })
  method: string;

  @ApiProperty({ description: 'Path as sent (legacy paths stay legacy).', example: '/v1/investors' })
  path: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 200 },
    maxProperties: 50,
    nullable: true,
    description:
      'Query parameters. Values of paging, id, enum and time parameters are kept; any other value is ' +
      '`[redacted]` so no personal data is stored.',
    example: { limit: '10', name: '[redacted]' },
  })
  query: Record<string, string> | null;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 100, maximum: 599, example: 422 })
  status: number;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647, example: 42 })
  duration_ms: number;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The API key (apk_) that sent it.',
    example: 'apk_2s9dLq0VbN3xYz7TmW1pAa',
  })
  api_key_id: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The investor the key or token was scoped to, if any.',
    example: null,
  })
  investor_id: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The error code of a failed request.',
    example: 'SVC-422-001',
  })
  error_code: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description:
      'The error the client received (the `error` object of the SVC envelope; the legacy body for legacy ' +
      'add-on refusals). Bodies of successful requests are never stored.',
    example: {
      type: 'invalid_request_error',
      code: 'SVC-422-001',
      message: 'email must be an email',
      param: 'email',
      doc_url: 'http://localhost:3000/docs/errors#SVC-422-001',
      request_log_url: 'http://localhost:3000/dashboard/logs/req_9xq2ZtM1Xb3l0pV7aQmN4w',
    },
  })
  error: Record<string, unknown> | null;

  @ApiProperty({ type: String, nullable: true, example: 'order-2026-11-22-0001' })
  idempotency_key: string | null;

  @ApiProperty({ description: 'True when the answer was a stored idempotent response.', example: false })
  idempotent_replayed: boolean;

  @ApiProperty({ description: 'True when sent through the legacy base path.', example: false })
  legacy: boolean;
}
