import { Module } from '@nestjs/common';
import { SandboxAdminController } from 'src/modules/sandbox-admin/sandbox-admin.controller';
import { SandboxAdminGuard } from 'src/modules/sandbox-admin/sandbox-admin.guard';
import { SandboxTenantsService } from 'src/modules/sandbox-admin/sandbox-tenants.service';
import { TenantEraser } from 'src/modules/sandbox-admin/tenant-eraser.service';

/** Operator routes of sandbox deployments (/v1/sandbox/*): tenants for QA runs. */
@Module({
  controllers: [SandboxAdminController],
  providers: [SandboxAdminGuard, SandboxTenantsService, TenantEraser],
})
export class SandboxAdminModule {}
