import { Module } from '@nestjs/common';
import { AssetCatalogModule } from 'src/modules/assets/asset-catalog.module';
import { AssetsController } from 'src/modules/assets/assets.controller';
import { PriceTestHelpersController } from 'src/modules/assets/price-test-helpers.controller';
import { PriceTestHelpersService } from 'src/modules/assets/price-test-helpers.service';

/** Asset search and lookup routes, and the sandbox price test helper. */
@Module({
  imports: [AssetCatalogModule],
  controllers: [AssetsController, PriceTestHelpersController],
  providers: [PriceTestHelpersService],
  exports: [AssetCatalogModule],
})
export class AssetsModule {}
