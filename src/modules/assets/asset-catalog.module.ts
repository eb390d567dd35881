import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AssetFigures } from 'src/modules/assets/asset-figures';
import { AssetIdentityChanges } from 'src/modules/assets/asset-identity-changes';
import { AssetPresenter } from 'src/modules/assets/asset-presenter';
import { AssetSearchCache } from 'src/modules/assets/asset-search-cache';
import { AssetsRepository } from 'src/modules/assets/assets.repository';
import { AssetsService } from 'src/modules/assets/assets.service';
import { CatalogueListener } from 'src/modules/assets/catalogue-listener';
import { AssetBondEntity } from 'src/modules/assets/entities/asset-bond.entity';
import { AssetPriceOverrideEntity } from 'src/modules/assets/entities/asset-price-override.entity';
import { AssetEntity } from 'src/modules/assets/entities/asset.entity';
import { PriceAdjustments } from 'src/modules/assets/price-adjustments';
import { SearchBodies } from 'src/modules/assets/search-bodies';
import { PricingModule } from 'src/modules/pricing/pricing.module';

/** Asset reference data and lookup without HTTP: the API and the worker process (trading engine) use it. */
@Module({
  imports: [
    TypeOrmModule.forFeature([AssetEntity, AssetBondEntity, AssetPriceOverrideEntity]),
    PricingModule,
  ],
  providers: [
    AssetsRepository,
    AssetFigures,
    AssetPresenter,
    AssetsService,
    AssetSearchCache,
    CatalogueListener,
    SearchBodies,
    PriceAdjustments,
    AssetIdentityChanges,
  ],
  exports: [
    AssetsRepository,
    AssetPresenter,
    AssetsService,
    PriceAdjustments,
    AssetIdentityChanges,
    PricingModule,
  ],
})
export class AssetCatalogModule {}
