import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsString,
  Length,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { isDecimalText } from 'src/core/money/money';

const MAX_PRICE = 1e12;
/** Longest decimal text accepted: 12 integer digits, the point and up to 19 decimals. */
const MAX_PRICE_TEXT = 32;

/** A positive price given as decimal text ('189.25') or a JSON number. */
function IsPrice(): PropertyDecorator {
  return ValidateBy({
    name: 'isPrice',
    validator: {
      validate: (value: unknown) =>
        (typeof value === 'number' && Number.isFinite(value) && value > 0 && value < MAX_PRICE) ||
        (typeof value === 'string' &&
          value.length <= MAX_PRICE_TEXT &&
          isDecimalText(value) &&
          Number(value) > 0 &&
          Number(value) < MAX_PRICE),
      defaultMessage: () => `$property must be a positive decimal number below ${MAX_PRICE}`,
    },
  });
}

const PRICE_DOC: ApiPropertyOptions = {
  oneOf: [
    { type: 'string', pattern: '^\\d+(\\.\\d+)?$', maxLength: MAX_PRICE_TEXT, nullable: true },
    { type: 'number' },
  ],
  description:
    'Last price to hold (decimal text or number; bonds: clean price, percent of par); null removes the ' +
    'override and the asset follows the simulation again.',
  example: '189.25',
};

export class PriceSettingDto {
  @ApiProperty({ description: 'Ticker, asset id, CUSIP or ISIN.', example: 'AAPL' })
  @IsString()
  @Length(1, 64)
  symbol: string;

  @ApiProperty(PRICE_DOC)
  @ValidateIf((o: PriceSettingDto) => o.price !== null)
  @IsDefined()
  @IsPrice()
  price: string | number | null;
}

/** POST /v1/test_helpers/prices: one price (`symbol`, `price`) or several (`prices`). */
export class SetPricesDto {
  @ApiPropertyOptional({ description: 'Single form: the asset.', example: 'AAPL' })
  @ValidateIf((o: SetPricesDto) => o.prices === undefined)
  @IsString()
  @Length(1, 64)
  symbol?: string;

  @ApiPropertyOptional(PRICE_DOC)
  @ValidateIf((o: SetPricesDto) => o.prices === undefined && o.price !== null)
  @IsDefined()
  @IsPrice()
  price?: string | number | null;

  @ApiPropertyOptional({
    type: PriceSettingDto,
    isArray: true,
    minItems: 1,
    maxItems: 100,
    description: 'Batch form: up to 100 settings, applied together.',
  })
  @ValidateIf((o: SetPricesDto) => o.prices !== undefined)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => PriceSettingDto)
  prices?: PriceSettingDto[];
}
