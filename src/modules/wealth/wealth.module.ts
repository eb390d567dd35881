import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsModule } from 'src/modules/accounts/accounts.module';
import { FinancialPlanVersionEntity } from 'src/modules/wealth/entities/financial-plan-version.entity';
import { FinancialPlanEntity } from 'src/modules/wealth/entities/financial-plan.entity';
import { FinancialPlanGoalsController } from 'src/modules/wealth/financial-plan-goals.controller';
import { FinancialPlanController } from 'src/modules/wealth/financial-plan.controller';
import { FinancialPlanRepository } from 'src/modules/wealth/financial-plan.repository';
import { FinancialPlanService } from 'src/modules/wealth/financial-plan.service';

/** The Wealth surface: an account's financial plan, its versions, goals and projections. */
@Module({
  imports: [TypeOrmModule.forFeature([FinancialPlanEntity, FinancialPlanVersionEntity]), AccountsModule],
  controllers: [FinancialPlanController, FinancialPlanGoalsController],
  providers: [FinancialPlanService, FinancialPlanRepository],
})
export class WealthModule {}
