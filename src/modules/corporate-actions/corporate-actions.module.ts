import { Module } from '@nestjs/common';
import {
  CorporateActionsController,
  CorporateActionTestHelpersController,
} from 'src/modules/corporate-actions/corporate-actions.controller';
import { CorporateActionsCoreModule } from 'src/modules/corporate-actions/corporate-actions-core.module';
import { CorporateActionsService } from 'src/modules/corporate-actions/corporate-actions.service';

/** Corporate actions: GET /v1/corporate-actions (and entitlements) and the test helpers. */
@Module({
  imports: [CorporateActionsCoreModule],
  controllers: [CorporateActionsController, CorporateActionTestHelpersController],
  providers: [CorporateActionsService],
})
export class CorporateActionsModule {}
