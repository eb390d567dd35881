import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MARKET_SESSIONS } from 'src/modules/markets/dto/market.dto';
import { ASSET_CLASSES, TIMEFRAMES } from 'src/modules/pricing/price-source';
import { COUNT } from 'src/core/http/integer-schemas';

/** Latest quote, with Alpaca market-data keys. */
export class QuoteTickDto {
  @ApiProperty({
    format: 'date-time',
    description: 'When the quote was recorded.',
    example: '2026-11-20T20:59:00.000Z',
  })
  t: string;

  @ApiProperty({ description: 'Bid price.', example: 229.81 })
  bp: number;

  @ApiProperty({ description: 'Bid size (shares; face value for bonds).', example: 300 })
  bs: number;

  @ApiProperty({ description: 'Ask price.', example: 229.93 })
  ap: number;

  @ApiProperty({ description: 'Ask size.', example: 500 })
  as: number;
}

/** Latest trade, with Alpaca market-data keys. */
export class TradeTickDto {
  @ApiProperty({ format: 'date-time', example: '2026-11-20T20:59:00.000Z' })
  t: string;

  @ApiProperty({ description: 'Trade price.', example: 229.87 })
  p: number;

  @ApiProperty({ description: 'Trade size.', example: 100 })
  s: number;
}

export class BarDto {
  @ApiProperty({
    format: 'date-time',
    description: 'Start of the bar (daily bars: local midnight of the trading day).',
    example: '2026-11-20T14:30:00.000Z',
  })
  t: string;

  @ApiProperty({ description: 'Open.', example: 229.1 })
  o: number;

  @ApiProperty({ description: 'High.', example: 229.95 })
  h: number;

  @ApiProperty({ description: 'Low.', example: 228.97 })
  l: number;

  @ApiProperty({ description: 'Close.', example: 229.87 })
  c: number;

  @ApiProperty({ description: 'Volume.', example: 12840 })
  v: number;

  @ApiProperty({ ...COUNT, description: 'Number of trades.', example: 97 })
  n: number;

  @ApiProperty({ description: 'Volume-weighted average price (typical price of the bar).', example: 229.6 })
  vw: number;
}

/** Bond quote block: prices per 100 face at the settlement date of a trade made now. */
export class BondQuoteDto {
  @ApiProperty({ description: 'Clean price, percent of par (the quoted price).', example: 99.721373 })
  clean_price: number;

  @ApiProperty({ description: 'Dirty (invoice) price: clean_price + accrued_interest.', example: 99.838776 })
  dirty_price: number;

  @ApiProperty({ description: 'Accrued interest per 100 face at settlement_date.', example: 0.117403 })
  accrued_interest: number;

  @ApiPropertyOptional({
    description: 'Yield to maturity of clean_price, percent (bills: bond-equivalent). Absent once matured.',
    example: 4.2915,
  })
  yield_to_maturity?: number;

  @ApiProperty({
    format: 'date',
    description: 'T+N business days after today on the market calendar.',
    example: '2026-11-24',
  })
  settlement_date: string;

  @ApiProperty({ type: String, format: 'date', nullable: true, example: '2027-05-15' })
  next_coupon_date: string | null;

  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    description: 'Coupon date (or dated date) interest accrues from.',
    example: '2026-11-15',
  })
  previous_coupon_date: string | null;

  @ApiProperty({ enum: ['percent_of_par'], example: 'percent_of_par' })
  price_basis: 'percent_of_par';
}

export class QuoteDto {
  @ApiProperty({ enum: ['quote'], example: 'quote' })
  object: 'quote';

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ example: 'b0b6dd9d-8b9b-5c5a-a3a5-8f3e1f2c6d7e' })
  asset_id: string;

  @ApiProperty({ enum: ASSET_CLASSES, example: 'equity' })
  class: string;

  @ApiProperty({ example: 'XNAS' })
  market: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ enum: MARKET_SESSIONS, description: 'Session of the market now.', example: 'regular' })
  session: string;

  @ApiProperty({
    enum: ['simulated', 'override'],
    description:
      'simulated: the seeded walk; override: a test-mode price set with POST /v1/test_helpers/prices.',
    example: 'simulated',
  })
  source: string;

  @ApiProperty({ type: QuoteTickDto })
  quote: QuoteTickDto;

  @ApiProperty({ type: TradeTickDto })
  trade: TradeTickDto;

  @ApiProperty({ description: 'Close of the previous session.', example: 228.45 })
  previous_close: number;

  @ApiProperty({ example: 1.42 })
  change: number;

  @ApiProperty({ description: 'Percent (0.62 is 0.62%).', example: 0.6216 })
  change_percent: number;

  @ApiPropertyOptional({ type: BondQuoteDto, description: 'Bonds, bills and notes only.' })
  bond?: BondQuoteDto;
}

export class BarsDto {
  @ApiProperty({ enum: ['bars'], example: 'bars' })
  object: 'bars';

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ example: 'b0b6dd9d-8b9b-5c5a-a3a5-8f3e1f2c6d7e' })
  asset_id: string;

  @ApiProperty({ enum: TIMEFRAMES, example: '1Day' })
  timeframe: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ type: BarDto, isArray: true })
  bars: BarDto[];

  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Pass as page_token for the next page; null on the last page.',
    example: null,
  })
  next_page_token: string | null;
}

export class SnapshotDto {
  @ApiProperty({ enum: ['snapshot'], example: 'snapshot' })
  object: 'snapshot';

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ example: 'b0b6dd9d-8b9b-5c5a-a3a5-8f3e1f2c6d7e' })
  asset_id: string;

  @ApiProperty({ enum: ASSET_CLASSES, example: 'equity' })
  class: string;

  @ApiProperty({ example: 'XNAS' })
  market: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ enum: MARKET_SESSIONS, example: 'regular' })
  session: string;

  @ApiProperty({ type: TradeTickDto })
  latest_trade: TradeTickDto;

  @ApiProperty({ type: QuoteTickDto })
  latest_quote: QuoteTickDto;

  @ApiProperty({ type: BarDto, nullable: true, description: 'Latest one-minute bar.' })
  minute_bar: BarDto | null;

  @ApiProperty({ type: BarDto, nullable: true, description: 'Bar of the current (or latest) trading day.' })
  daily_bar: BarDto | null;

  @ApiProperty({ type: BarDto, nullable: true, description: 'Bar of the trading day before.' })
  prev_daily_bar: BarDto | null;

  @ApiPropertyOptional({ type: BondQuoteDto, description: 'Bonds, bills and notes only.' })
  bond?: BondQuoteDto;
}
