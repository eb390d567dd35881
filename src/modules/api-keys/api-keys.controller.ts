import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal, TenantLevel } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import type { ListEnvelope } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import { CursorPageQuery } from 'src/core/http/pagination';
import { ApiKeysService } from 'src/modules/api-keys/api-keys.service';
import { ApiKeyDto, CreateApiKeyDto, CreatedApiKeyDto } from 'src/modules/api-keys/dto/api-key.dto';

const INVESTOR_ID = ApiParam({ name: 'investor_id', example: 'inv_4Qm1bX9kLr2TzP0aVn7c8w' });
const API_KEY_ID = ApiParam({ name: 'api_key_id', example: 'apk_8hN2cQ5vT1mZ0bW7xLr4yA' });
const SCOPE =
  'A tenant key manages any investor’s keys; an investor-scoped key only its own investor’s (403 SVC-403-001 ' +
  'for another investor).';

@ApiTags('API Keys')
@Controller('investors/:investor_id/api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  @TenantLevel()
  @INVESTOR_ID
  @ApiOperation({
    operationId: 'createApiKey',
    summary: 'Create an investor-scoped API key',
    description:
      'Issues a key scoped to the investor: it sees only that investor’s resources. Its environment follows ' +
      'the calling key (a test key issues TEST keys). The `secret` is returned in this response only. The key ' +
      'works at once. Tenant keys only (an investor key cannot issue keys); 409 SVC-409-001 for a closed investor.',
  })
  @ApiCreatedResponse({ type: CreatedApiKeyDto })
  @ApiErrors('SVC-400-001', 'SVC-404-001', 'SVC-409-001')
  create(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Body() body: CreateApiKeyDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<CreatedApiKeyDto> {
    return this.keys.create(principal, investorId, body, idem);
  }

  @Get()
  @INVESTOR_ID
  @ApiOperation({
    operationId: 'listApiKeys',
    summary: 'List an investor’s API keys',
    description: `Keys of the caller’s mode, newest first, without secrets. ${SCOPE}`,
  })
  @ApiOkResponse({ type: ListEnvelopeOf(ApiKeyDto, '/v1/investors/inv_4Qm1bX9kLr2TzP0aVn7c8w/api-keys') })
  @ApiErrors('SVC-400-001', 'SVC-403-001', 'SVC-404-001')
  list(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Query() query: CursorPageQuery,
    @Req() req: Request,
  ): Promise<ListEnvelope<ApiKeyDto>> {
    return this.keys.list(principal, investorId, query, req);
  }

  @Get(':api_key_id')
  @INVESTOR_ID
  @API_KEY_ID
  @ApiOperation({
    operationId: 'getApiKey',
    summary: 'Retrieve an API key',
    description: `The key record without its secret; status \`expired\` once expires_at has passed. ${SCOPE}`,
  })
  @ApiOkResponse({ type: ApiKeyDto })
  @ApiErrors('SVC-403-001', 'SVC-404-001')
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Param('api_key_id') keyId: string,
  ): Promise<ApiKeyDto> {
    return this.keys.get(principal, investorId, keyId);
  }

  @Post(':api_key_id/revoke')
  @HttpCode(200)
  @INVESTOR_ID
  @API_KEY_ID
  @ApiOperation({
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    description:
      'The key stops authenticating (401 SVC-401-001) at once on this server and within 5 seconds everywhere. ' +
      `Returns the key record with status \`revoked\`; revoking again is harmless. ${SCOPE}`,
  })
  @ApiOkResponse({ type: ApiKeyDto })
  @ApiErrors('SVC-403-001', 'SVC-404-001')
  revoke(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Param('api_key_id') keyId: string,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<ApiKeyDto> {
    return this.keys.revoke(principal, investorId, keyId, idem);
  }
}
