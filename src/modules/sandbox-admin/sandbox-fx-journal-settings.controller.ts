import { Body, Controller, Param, Patch, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Public } from 'src/core/auth/auth.decorators';
import { ApiErrors } from 'src/core/errors/error-docs';
import { ServiceError } from 'src/core/errors/service-error';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { FxSettingsService } from 'src/modules/fx/fx-settings.service';
import { JournalSettingsService } from 'src/modules/journals/journal-settings.service';
import {
  SandboxFxSettingsDto,
  SandboxJournalSettingsDto,
  UpdateSandboxFxSettingsDto,
  UpdateSandboxJournalSettingsDto,
} from 'src/modules/sandbox-admin/dto/sandbox-fx-journal-settings.dto';
import {
  SANDBOX_ADMIN_SECURITY,
  SANDBOX_AVAILABILITY,
} from 'src/modules/sandbox-admin/sandbox-admin.controller';
import { SandboxAdminGuard } from 'src/modules/sandbox-admin/sandbox-admin.guard';

const TENANT_ID = { name: 'tenant_id', example: 'ten_4fJx2m9QpT7aLk3Vn8ZcYw' };
const SHOW =
  'Fields left out keep their value; an empty body changes nothing and answers the current settings.';

/** A tenant's FX spread and journal limits on a sandbox, as support sets them with the CLI. */
@ApiTags('Sandbox admin')
@ApiBearerAuth(SANDBOX_ADMIN_SECURITY)
@ApiErrors('SVC-401-001', 'SVC-404-001')
@Public()
@UseGuards(SandboxAdminGuard)
@Controller('sandbox/tenants/:tenant_id')
export class SandboxFxJournalSettingsController {
  constructor(
    private readonly tenancy: TenancyService,
    private readonly fx: FxSettingsService,
    private readonly journals: JournalSettingsService,
  ) {}

  @Patch('fx-settings')
  @ApiOperation({
    operationId: 'updateSandboxTenantFxSettings',
    summary: 'Set a tenant\u2019s FX spread (sandbox admin)',
    description: `Like the CLI\u2019s \`fx:settings\`. Applies within 5 seconds. ${SHOW} ${SANDBOX_AVAILABILITY}`,
  })
  @ApiParam(TENANT_ID)
  @ApiOkResponse({ type: SandboxFxSettingsDto })
  @ApiErrors('SVC-400-001')
  async fxSettings(
    @Param('tenant_id') tenantId: string,
    @Body() body: UpdateSandboxFxSettingsDto,
  ): Promise<SandboxFxSettingsDto> {
    await this.requireTenant(tenantId);
    // null, like a field left out, keeps the value (as the other tenant settings do).
    const bps =
      body.fx_spread_bps !== undefined && body.fx_spread_bps !== null
        ? await this.fx.update(tenantId, body.fx_spread_bps)
        : await this.fx.spreadBps(tenantId);
    return { tenant_id: tenantId, fx_spread_bps: bps };
  }

  @Patch('journal-settings')
  @ApiOperation({
    operationId: 'updateSandboxTenantJournalSettings',
    summary: 'Set a tenant\u2019s journal limits (sandbox admin)',
    description: `Like the CLI\u2019s \`journals:settings\`. Applies within 5 seconds. ${SHOW} ${SANDBOX_AVAILABILITY}`,
  })
  @ApiParam(TENANT_ID)
  @ApiOkResponse({ type: SandboxJournalSettingsDto })
  @ApiErrors('SVC-400-001')
  async journalSettings(
    @Param('tenant_id') tenantId: string,
    @Body() body: UpdateSandboxJournalSettingsDto,
  ): Promise<SandboxJournalSettingsDto> {
    await this.requireTenant(tenantId);
    const perEntry = body.journal_limit_per_entry ?? undefined;
    const perDayPerAccount = body.journal_limit_per_day_per_account ?? undefined;
    const limits =
      perEntry !== undefined || perDayPerAccount !== undefined
        ? await this.journals.update(tenantId, { perEntry, perDayPerAccount })
        : await this.journals.limits(tenantId);
    return {
      tenant_id: tenantId,
      journal_limit_per_entry: limits.perEntry.toFixed(),
      journal_limit_per_day_per_account: limits.perDayPerAccount.toFixed(),
    };
  }

  private async requireTenant(tenantId: string): Promise<void> {
    if (!(await this.tenancy.findTenant(tenantId))) {
      throw ServiceError.notFound('tenant', tenantId);
    }
  }
}
