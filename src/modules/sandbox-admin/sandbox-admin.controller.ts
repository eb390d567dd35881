import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Public } from 'src/core/auth/auth.decorators';
import { ApiErrors } from 'src/core/errors/error-docs';
import {
  CreateSandboxTenantDto,
  DeletedSandboxTenantDto,
  ListSandboxTenantsQuery,
  SandboxTenantDto,
  SandboxTenantListDto,
  SandboxTenantWithKeysDto,
  UpdateSandboxTenantDto,
} from 'src/modules/sandbox-admin/dto/sandbox-tenant.dto';
import { SandboxAdminGuard } from 'src/modules/sandbox-admin/sandbox-admin.guard';
import { SandboxTenantsService } from 'src/modules/sandbox-admin/sandbox-tenants.service';

export const SANDBOX_ADMIN_SECURITY = 'sandboxAdmin';

export const SANDBOX_AVAILABILITY =
  'Sandbox deployments only: with APP_ENV=production, or without SANDBOX_ADMIN_TOKEN, every /v1/sandbox route ' +
  'answers 404. Authenticate with `Authorization: Bearer <SANDBOX_ADMIN_TOKEN>` (API keys and JWTs do not apply).';

const TENANT_ID = { name: 'tenant_id', example: 'ten_4fJx2m9QpT7aLk3Vn8ZcYw' };

@ApiTags('Sandbox admin')
@ApiBearerAuth(SANDBOX_ADMIN_SECURITY)
@ApiErrors('SVC-401-001', 'SVC-404-001')
@Public()
@UseGuards(SandboxAdminGuard)
@Controller('sandbox/tenants')
export class SandboxAdminController {
  constructor(private readonly tenants: SandboxTenantsService) {}

  @Post()
  @ApiOperation({
    operationId: 'createSandboxTenant',
    summary: 'Create a tenant (sandbox admin)',
    description:
      'Creates a tenant with one test and one live API key, like the support CLI’s `tenants:create`; the ' +
      `secrets are in this answer only. For QA runs that bring their own tenants. ${SANDBOX_AVAILABILITY}`,
  })
  @ApiCreatedResponse({ type: SandboxTenantWithKeysDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002')
  create(@Body() body: CreateSandboxTenantDto): Promise<SandboxTenantWithKeysDto> {
    return this.tenants.create(body);
  }

  @Get()
  @ApiOperation({
    operationId: 'listSandboxTenants',
    summary: 'List tenants by name prefix (sandbox admin)',
    description: `Tenants whose name starts with \`name_prefix\`, oldest first, at most 1,000. ${SANDBOX_AVAILABILITY}`,
  })
  @ApiOkResponse({ type: SandboxTenantListDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002')
  list(@Query() query: ListSandboxTenantsQuery): Promise<SandboxTenantListDto> {
    return this.tenants.list(query.name_prefix);
  }

  @Patch(':tenant_id')
  @ApiOperation({
    operationId: 'updateSandboxTenant',
    summary: 'Change a tenant’s products and flags (sandbox admin)',
    description:
      'Sets the add-on products (the list replaces the current one) and `fixedIncomeEnabled`, like the CLI’s ' +
      `\`tenants:update\`. Keys already cached by the API see the change within AUTH_CACHE_TTL_MS. ${SANDBOX_AVAILABILITY}`,
  })
  @ApiParam(TENANT_ID)
  @ApiOkResponse({ type: SandboxTenantDto })
  @ApiErrors('SVC-400-001')
  update(
    @Param('tenant_id') tenantId: string,
    @Body() body: UpdateSandboxTenantDto,
  ): Promise<SandboxTenantDto> {
    return this.tenants.update(tenantId, body);
  }

  @Delete(':tenant_id')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'deleteSandboxTenant',
    summary: 'Delete a tenant and all its data (sandbox admin)',
    description:
      'Erases the tenant and every row it owns (investors, accounts, documents, keys, webhooks and their ' +
      'deliveries, events, idempotent responses, clocks and jobs, ledger, transfers and every other table with ' +
      `a tenant_id), in one transaction. Cannot be undone. ${SANDBOX_AVAILABILITY}`,
  })
  @ApiParam(TENANT_ID)
  @ApiOkResponse({ type: DeletedSandboxTenantDto })
  remove(@Param('tenant_id') tenantId: string): Promise<DeletedSandboxTenantDto> {
    return this.tenants.remove(tenantId);
  }
}
