import { Module } from '@nestjs/common';
import { CommissionSettings } from 'src/modules/trading/commissions';

/** Per-tenant commission terms: the engine, placement and the support CLI use it. */
@Module({ providers: [CommissionSettings], exports: [CommissionSettings] })
export class TradingSettingsModule {}
