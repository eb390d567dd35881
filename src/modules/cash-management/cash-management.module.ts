import { Module } from '@nestjs/common';
import { AprTiersController } from 'src/modules/cash-management/apr-tiers.controller';
import { CashManagementFallbackController } from 'src/modules/cash-management/cash-management.controller';
import { CashProgramController } from 'src/modules/cash-management/cash-program.controller';
import { CashSweepModule } from 'src/modules/cash-sweep/cash-sweep.module';

/**
 * The Cash Management add-on (`/v1/cash-management/*`): the partner runs its cash program (tiers,
 * enrollments, totals, payouts) through cash sweep's services. Tenant-level; legacy 403 when the
 * tenant does not have the product.
 */
@Module({
  imports: [CashSweepModule],
  // The catch-all comes last so the named routes match first.
  controllers: [AprTiersController, CashProgramController, CashManagementFallbackController],
})
export class CashManagementModule {}
