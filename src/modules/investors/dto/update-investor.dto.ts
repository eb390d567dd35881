import { ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsOptional, ValidateNested } from 'class-validator';
import { CreateInvestorDto } from 'src/modules/investors/dto/create-investor.dto';
import {
  ContactInputDto,
  DisclosuresInputDto,
  IdentityInputDto,
} from 'src/modules/investors/dto/investor-input.dto';

export class IdentityUpdateDto extends PartialType(IdentityInputDto) {}

/** Contact fields to change; `address`, when given, replaces the whole address. */
export class ContactUpdateDto extends PartialType(ContactInputDto) {}

export class DisclosuresUpdateDto extends PartialType(DisclosuresInputDto) {}

/**
 * Partial update: only the fields sent change. Identity, tax id, disclosures and currency can
 * change only while the account is SUBMITTED (409 after KYC submission). Metadata keys set to
 * "" are removed.
 */
export class UpdateInvestorDto extends PartialType(
  PickType(CreateInvestorDto, ['currency', 'trading_type', 'enabled_assets', 'metadata'] as const),
) {
  @ApiPropertyOptional({ type: IdentityUpdateDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => IdentityUpdateDto)
  identity?: IdentityUpdateDto;

  @ApiPropertyOptional({ type: ContactUpdateDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => ContactUpdateDto)
  contact?: ContactUpdateDto;

  @ApiPropertyOptional({ type: DisclosuresUpdateDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => DisclosuresUpdateDto)
  disclosures?: DisclosuresUpdateDto;
}
