import { Module } from '@nestjs/common';
import { AccountsModule } from 'src/modules/accounts/accounts.module';
import { ApiKeysController } from 'src/modules/api-keys/api-keys.controller';
import { ApiKeysService } from 'src/modules/api-keys/api-keys.service';

/** Investor-scoped API keys, stored through the core TenancyService (the key store auth reads). */
@Module({
  imports: [AccountsModule],
  controllers: [ApiKeysController],
  providers: [ApiKeysService],
})
export class ApiKeysModule {}
