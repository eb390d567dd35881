import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, Length } from 'class-validator';
import { Product, PRODUCTS } from 'src/core/tenancy/tenant.entity';

const PRODUCTS_DESCRIPTION = `Add-on products of the tenant: ${PRODUCTS.join(', ')}.`;

export class CreateSandboxTenantDto {
  @ApiProperty({ description: 'Display name of the partner, 1 to 100 characters.', example: 'QA run 42' })
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiPropertyOptional({
    description: `${PRODUCTS_DESCRIPTION} Default: none.`,
    example: ['market_data'],
    items: { type: 'string', enum: [...PRODUCTS] },
    maxItems: PRODUCTS.length,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(PRODUCTS.length)
  @IsIn(PRODUCTS, { each: true })
  products?: Product[];

  @ApiPropertyOptional({ description: 'Bond order routing allowed. Default: false.', example: false })
  @IsOptional()
  @IsBoolean()
  fixedIncomeEnabled?: boolean;
}

export class UpdateSandboxTenantDto {
  @ApiPropertyOptional({
    description: `${PRODUCTS_DESCRIPTION} Replaces the tenant's list; absent: unchanged.`,
    example: ['market_data', 'cash_management'],
    items: { type: 'string', enum: [...PRODUCTS] },
    maxItems: PRODUCTS.length,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(PRODUCTS.length)
  @IsIn(PRODUCTS, { each: true })
  products?: Product[];

  @ApiPropertyOptional({ description: 'Bond order routing allowed; absent: unchanged.', example: true })
  @IsOptional()
  @IsBoolean()
  fixedIncomeEnabled?: boolean;
}

export class ListSandboxTenantsQuery {
  @ApiProperty({
    description: 'Tenants whose name starts with this text (1 to 100 characters).',
    example: 'QA run 42',
    maxLength: 100,
  })
  @IsString()
  @Length(1, 100)
  name_prefix: string;
}

export class SandboxTenantDto {
  @ApiProperty({ example: 'ten_4fJx2m9QpT7aLk3Vn8ZcYw', maxLength: 64 })
  tenant_id: string;

  @ApiProperty({ example: 'QA run 42', maxLength: 100 })
  name: string;

  @ApiProperty({
    example: ['market_data'],
    items: { type: 'string', enum: [...PRODUCTS] },
    maxItems: PRODUCTS.length,
  })
  products: Product[];

  @ApiProperty({ example: false })
  fixed_income_enabled: boolean;
}

export class SandboxKeyDto {
  @ApiProperty({ example: 'apk_9xq2ZtM1Xb3l0pV7aQmN4w' })
  id: string;

  @ApiProperty({ example: 'pk_test_Qm9vZ2xlU2FuZGJveEtleQ' })
  public_key: string;

  @ApiProperty({
    description: 'Shown once, here; only its hash is stored.',
    example: 'sk_test_c2VjcmV0LXNob3duLW9uY2U',
  })
  secret: string;
}

export class SandboxTenantKeysDto {
  @ApiProperty({ type: SandboxKeyDto, description: 'Test mode key (pk_test_).' })
  test: SandboxKeyDto;

  @ApiProperty({ type: SandboxKeyDto, description: 'Live mode key (pk_live_).' })
  live: SandboxKeyDto;
}

export class SandboxTenantWithKeysDto extends SandboxTenantDto {
  @ApiProperty({ type: SandboxTenantKeysDto })
  keys: SandboxTenantKeysDto;
}

export class SandboxTenantListDto {
  @ApiProperty({ type: SandboxTenantDto, isArray: true, maxItems: 1000 })
  data: SandboxTenantDto[];

  @ApiProperty({ description: 'True if more than 1,000 tenants matched.', example: false })
  has_more: boolean;
}

export class DeletedSandboxTenantDto {
  @ApiProperty({ example: 'ten_4fJx2m9QpT7aLk3Vn8ZcYw' })
  tenant_id: string;

  @ApiProperty({ enum: [true], example: true })
  deleted: true;

  @ApiProperty({
    description: 'Rows erased per table (tables holding none of the tenant’s rows left out).',
    example: { api_keys: 2, investors: 3, webhook_endpoints: 1 },
    type: 'object',
    maxProperties: 500,
    additionalProperties: { type: 'integer', format: 'int64', minimum: 1, maximum: 1e15 },
  })
  erased: Record<string, number>;
}
