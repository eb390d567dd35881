import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length, Matches, ValidateIf } from 'class-validator';

/** PATCH /sandbox/tenants/{tenant_id}/branding: what the tenant's documents show. */
export class UpdateSandboxBrandingDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 100,
    description:
      'Name printed at the top of every confirmation and statement; null clears it. Absent: unchanged.',
    example: 'Acme Invest',
  })
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsString()
  @Length(1, 100)
  display_name?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 7,
    description: 'Accent colour as `#rrggbb` (lower-case hex); null clears it. Absent: unchanged.',
    example: '#0a7d5a',
  })
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsString()
  @Matches(/^#[0-9a-f]{6}$/, { message: 'accent_color must be a colour written #rrggbb (lower-case hex)' })
  accent_color?: string | null;
}

export class SandboxBrandingDto {
  @ApiProperty({ example: 'ten_4fJx2m9QpT7aLk3Vn8ZcYw' })
  tenant_id: string;

  @ApiProperty({ type: String, nullable: true, example: 'Acme Invest' })
  display_name: string | null;

  @ApiProperty({ type: String, nullable: true, example: '#0a7d5a' })
  accent_color: string | null;
}
