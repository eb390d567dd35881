import { All, Controller, NotFoundException } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import { RequiresProductTenantLevel } from 'src/core/auth/auth.decorators';

/** Any other path under /cash-management: the entitlement check still answers first (legacy 403). */
@ApiTags('Cash Management')
@RequiresProductTenantLevel('cash_management')
@Controller('cash-management')
export class CashManagementFallbackController {
  @All('*path')
  @ApiExcludeEndpoint()
  unknown(): never {
    throw new NotFoundException();
  }
}
