import { Module } from '@nestjs/common';
import { FxSettingsService } from 'src/modules/fx/fx-settings.service';

/** The tenant's FX spread alone, for the CLI and the sandbox admin API. */
@Module({ providers: [FxSettingsService], exports: [FxSettingsService] })
export class FxSettingsModule {}
