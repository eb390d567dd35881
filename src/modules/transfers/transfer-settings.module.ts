import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TransferSettingsEntity } from 'src/modules/transfers/entities/transfer-settings.entity';
import { TransferSettingsService } from 'src/modules/transfers/transfer-settings.service';

/** Tenants' transfer fees and bounds: read by transfers, set by support through the CLI. */
@Module({
  imports: [TypeOrmModule.forFeature([TransferSettingsEntity])],
  providers: [TransferSettingsService],
  exports: [TransferSettingsService],
})
export class TransferSettingsModule {}
