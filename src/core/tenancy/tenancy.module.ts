import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyEntity } from 'src/core/tenancy/api-key.entity';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([TenantEntity, ApiKeyEntity])],
  providers: [TenancyService],
  exports: [TenancyService],
})
export class TenancyModule {}
