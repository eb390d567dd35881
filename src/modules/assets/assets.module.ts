import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AssetPresenter } from 'src/modules/assets/asset-presenter';
import { AssetsController } from 'src/modules/assets/assets.controller';
import { AssetsRepository } from 'src/modules/assets/assets.repository';
import { AssetsService } from 'src/modules/assets/assets.service';
import { AssetBondEntity } from 'src/modules/assets/entities/asset-bond.entity';
import { AssetPriceOverrideEntity } from 'src/modules/assets/entities/asset-price-override.entity';
import { AssetEntity } from 'src/modules/assets/entities/asset.entity';
import { PriceTestHelpersController } from 'src/modules/assets/price-test-helpers.controller';
import { PriceTestHelpersService } from 'src/modules/assets/price-test-helpers.service';
import { PricingModule } from 'src/modules/pricing/pricing.module';

/** Asset reference data, asset search and lookup, and the sandbox price test helper. */
@Module({
  imports: [
    TypeOrmModule.forFeature([AssetEntity, AssetBondEntity, AssetPriceOverrideEntity]),
    PricingModule,
  ],
  controllers: [AssetsController, PriceTestHelpersController],
  providers: [AssetsRepository, AssetPresenter, AssetsService, PriceTestHelpersService],
  exports: [AssetsService],
})
export class AssetsModule {}
