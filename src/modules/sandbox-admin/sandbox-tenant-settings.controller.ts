import { Body, Controller, Param, Patch, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Public } from 'src/core/auth/auth.decorators';
import { ApiErrors } from 'src/core/errors/error-docs';
import {
  SandboxCashSweepRatesDto,
  SandboxCommissionDto,
  SandboxCorporateActionSettingsDto,
  SandboxTransferSettingsDto,
  UpdateSandboxCashSweepRatesDto,
  UpdateSandboxCommissionDto,
  UpdateSandboxCorporateActionSettingsDto,
  UpdateSandboxTransferSettingsDto,
} from 'src/modules/sandbox-admin/dto/sandbox-tenant-settings.dto';
import {
  SANDBOX_ADMIN_SECURITY,
  SANDBOX_AVAILABILITY,
} from 'src/modules/sandbox-admin/sandbox-admin.controller';
import { SandboxAdminGuard } from 'src/modules/sandbox-admin/sandbox-admin.guard';
import {
  SandboxBrandingDto,
  UpdateSandboxBrandingDto,
} from 'src/modules/sandbox-admin/dto/sandbox-branding.dto';
import { SandboxTenantSettingsService } from 'src/modules/sandbox-admin/sandbox-tenant-settings.service';

const TENANT_ID = { name: 'tenant_id', example: 'ten_4fJx2m9QpT7aLk3Vn8ZcYw' };
const SHOW = 'Fields left out keep their value; an empty body changes nothing and answers the current terms.';

/**
 * A tenant's commercial terms on a sandbox, as support sets them in production with the CLI, so
 * a partner's QA can check how its fees, commissions and interest show before going live.
 */
@ApiTags('Sandbox admin')
@ApiBearerAuth(SANDBOX_ADMIN_SECURITY)
@ApiErrors('SVC-401-001', 'SVC-404-001')
@Public()
@UseGuards(SandboxAdminGuard)
@Controller('sandbox/tenants/:tenant_id')
export class SandboxTenantSettingsController {
  constructor(private readonly settings: SandboxTenantSettingsService) {}

  @Patch('commission')
  @ApiOperation({
    operationId: 'updateSandboxTenantCommission',
    summary: 'Set a tenant’s order commission (sandbox admin)',
    description:
      'Like the CLI’s `trading:commission`: `notional` (flat per order), `qty` (per unit) or `bps` of each ' +
      `fill, default zero. Applies to orders placed after the change, within 5 seconds. ${SHOW} ${SANDBOX_AVAILABILITY}`,
  })
  @ApiParam(TENANT_ID)
  @ApiOkResponse({ type: SandboxCommissionDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002')
  commission(
    @Param('tenant_id') tenantId: string,
    @Body() body: UpdateSandboxCommissionDto,
  ): Promise<SandboxCommissionDto> {
    return this.settings.commission(tenantId, body);
  }

  @Patch('transfer-settings')
  @ApiOperation({
    operationId: 'updateSandboxTenantTransferSettings',
    summary: 'Set a tenant’s transfer fees and bounds (sandbox admin)',
    description:
      'Like the CLI’s `transfers:settings`: flat fee plus basis points per deposit and per withdrawal (default ' +
      `zero), amounts per transfer (default 1 to 1000000). Applies within 5 seconds. ${SHOW} ${SANDBOX_AVAILABILITY}`,
  })
  @ApiParam(TENANT_ID)
  @ApiOkResponse({ type: SandboxTransferSettingsDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002')
  transferSettings(
    @Param('tenant_id') tenantId: string,
    @Body() body: UpdateSandboxTransferSettingsDto,
  ): Promise<SandboxTransferSettingsDto> {
    return this.settings.transferSettings(tenantId, body);
  }

  @Patch('cash-sweep-rates')
  @ApiOperation({
    operationId: 'updateSandboxTenantCashSweepRates',
    summary: 'Set the rates of a tenant’s default cash sweep tier (sandbox admin)',
    description:
      'Like the CLI’s `cash-sweep:rates`: the investor’s and the partner’s share of the default APR tier of a ' +
      'currency (default 350 and 50 bps a year), test and live modes alike. Applies from the next day accrued. ' +
      `${SHOW} ${SANDBOX_AVAILABILITY}`,
  })
  @ApiParam(TENANT_ID)
  @ApiOkResponse({ type: SandboxCashSweepRatesDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002')
  cashSweepRates(
    @Param('tenant_id') tenantId: string,
    @Body() body: UpdateSandboxCashSweepRatesDto,
  ): Promise<SandboxCashSweepRatesDto> {
    return this.settings.cashSweepRates(tenantId, body);
  }

  @Patch('corporate-action-settings')
  @ApiOperation({
    operationId: 'updateSandboxTenantCorporateActionSettings',
    summary: 'Set a tenant’s dividend withholding (sandbox admin)',
    description:
      'Like the CLI’s `corporate-actions:settings`: `dividend_withholding_bps`, withheld from cash dividends of ' +
      'investors whose tax residence is not the US (default 3000). Applies to dividends paid after the change, ' +
      `within 5 seconds. ${SHOW} ${SANDBOX_AVAILABILITY}`,
  })
  @ApiParam(TENANT_ID)
  @ApiOkResponse({ type: SandboxCorporateActionSettingsDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002')
  corporateActionSettings(
    @Param('tenant_id') tenantId: string,
    @Body() body: UpdateSandboxCorporateActionSettingsDto,
  ): Promise<SandboxCorporateActionSettingsDto> {
    return this.settings.corporateActionSettings(tenantId, body);
  }

  @Patch('branding')
  @ApiOperation({
    operationId: 'updateSandboxTenantBranding',
    summary: 'Set a tenant’s document branding (sandbox admin)',
    description:
      'Like the CLI’s `tenants:branding`: the `display_name` and `accent_color` (`#rrggbb`) printed on every ' +
      `trade confirmation and account statement made from now on. ${SHOW} ${SANDBOX_AVAILABILITY}`,
  })
  @ApiParam(TENANT_ID)
  @ApiOkResponse({ type: SandboxBrandingDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002')
  branding(
    @Param('tenant_id') tenantId: string,
    @Body() body: UpdateSandboxBrandingDto,
  ): Promise<SandboxBrandingDto> {
    return this.settings.branding(tenantId, body);
  }
}
