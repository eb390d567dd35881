import { Module } from '@nestjs/common';
import { BrandingService } from 'src/modules/statements/branding.service';

/** Tenant branding alone (the CLI and the sandbox admin API set it; documents print it). */
@Module({ providers: [BrandingService], exports: [BrandingService] })
export class BrandingModule {}
