import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal, TenantLevel } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { ApiCreatedRange } from 'src/core/http/created-range';
import { listUrl, ListEnvelope } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import { ListRequestLogsQuery } from 'src/modules/request-logs/dto/list-request-logs.query';
import { RequestLogDto } from 'src/modules/request-logs/dto/request-log.dto';
import { RequestLogsService } from 'src/modules/request-logs/request-logs.service';
import { ReadsMayLag } from 'src/core/database/replicas/read-context';

const RECORDED =
  'Every authenticated /v1 and legacy request of this tenant and mode is recorded (test keys see test ' +
  'requests only): method, path, query (values of fields that may hold personal data redacted), status, ' +
  'duration, the key, the investor scope, the Idempotency-Key and whether the answer was replayed, and for ' +
  'failures the error body the client received. Never headers, never bodies of successful requests. Rows ' +
  'appear within 2 seconds and are kept 30 days by default. Tenant-level: investor-scoped keys get 403.';

@ApiTags('Request logs')
@TenantLevel()
@Controller('request-logs')
export class RequestLogsController {
  constructor(private readonly logs: RequestLogsService) {}

  @Get()
  @ReadsMayLag()
  @ApiOperation({
    operationId: 'listRequestLogs',
    summary: 'List request logs',
    description: `Newest first. ${RECORDED}`,
  })
  @ApiOkResponse({ type: ListEnvelopeOf(RequestLogDto, '/v1/request-logs') })
  @ApiErrors('SVC-400-001')
  @ApiCreatedRange('requests')
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListRequestLogsQuery,
    @Req() req: Request,
  ): Promise<ListEnvelope<RequestLogDto>> {
    return this.logs.list(principal, query, listUrl(req));
  }

  @Get(':request_id')
  @ApiOperation({
    operationId: 'getRequestLog',
    summary: 'Retrieve a request log',
    description: `One request by its id (the \`Request-Id\` header; the end of an error's \`request_log_url\`). ${RECORDED}`,
  })
  @ApiParam({ name: 'request_id', example: 'req_9xq2ZtM1Xb3l0pV7aQmN4w' })
  @ApiOkResponse({ type: RequestLogDto })
  @ApiErrors('SVC-404-001')
  get(@CurrentPrincipal() principal: Principal, @Param('request_id') id: string): Promise<RequestLogDto> {
    return this.logs.get(principal, id);
  }
}
