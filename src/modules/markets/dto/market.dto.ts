import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';

export const MARKET_SESSIONS = ['pre', 'regular', 'post', 'closed'] as const;

export class SessionHoursDto {
  @ApiProperty({ description: 'Local wall-clock time, HH:MM.', example: '09:30' })
  start: string;

  @ApiProperty({
    description: 'Local wall-clock time, HH:MM (24:00 is the following midnight).',
    example: '16:00',
  })
  end: string;
}

export class MarketSessionsDto {
  @ApiProperty({ type: SessionHoursDto, nullable: true, description: 'Pre-market session; null when none.' })
  pre: SessionHoursDto | null;

  @ApiProperty({ type: SessionHoursDto })
  regular: SessionHoursDto;

  @ApiProperty({ type: SessionHoursDto, nullable: true, description: 'After-hours session; null when none.' })
  post: SessionHoursDto | null;
}

export class EarlyCloseSessionsDto {
  @ApiProperty({ type: SessionHoursDto, example: { start: '09:30', end: '13:00' } })
  regular: SessionHoursDto;

  @ApiProperty({ type: SessionHoursDto, nullable: true, example: { start: '13:00', end: '17:00' } })
  post: SessionHoursDto | null;
}

export class MarketDto {
  @ApiProperty({ enum: ['market'], example: 'market' })
  object: 'market';

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ description: 'ISO 10383 market code (CRYPTO for crypto venues).', example: 'XNYS' })
  code: string;

  @ApiProperty({ example: 'New York Stock Exchange' })
  name: string;

  @ApiProperty({ description: 'Short name, as asset records show in market_name.', example: 'NYSE' })
  display_name: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'ISO 3166-1 alpha-2, upper-case; null for global venues.',
    example: 'US',
  })
  country: string | null;

  @ApiProperty({ description: 'ISO 4217 trading currency.', example: 'USD' })
  currency: string;

  @ApiProperty({ description: 'IANA time zone of the session hours.', example: 'America/New_York' })
  timezone: string;

  @ApiProperty({ type: MarketSessionsDto, description: 'Session hours on a normal trading day, local time.' })
  sessions: MarketSessionsDto;

  @ApiProperty({
    type: EarlyCloseSessionsDto,
    nullable: true,
    description: 'Hours on scheduled early-close days (US: day after Thanksgiving, 3 July, 24 December).',
  })
  early_close_sessions: EarlyCloseSessionsDto | null;

  @ApiProperty({ description: 'false for a market that trades around the clock every day.', example: true })
  has_holidays: boolean;
}

export class MarketClockDto {
  @ApiProperty({ enum: ['market_clock'], example: 'market_clock' })
  object: 'market_clock';

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ example: 'XNYS' })
  market: string;

  @ApiProperty({
    description: 'The instant asked about, in the market’s local time.',
    example: '2025-07-03T13:30:00-04:00',
  })
  timestamp: string;

  @ApiProperty({ description: 'True only during the regular session.', example: false })
  is_open: boolean;

  @ApiProperty({ enum: MARKET_SESSIONS, example: 'post' })
  session: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Next regular-session open; null for a market that never closes.',
    example: '2025-07-07T09:30:00-04:00',
  })
  next_open: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Close of the current regular session if open, else of the next one.',
    example: '2025-07-07T16:00:00-04:00',
  })
  next_close: string | null;
}

export class TradingDayDto {
  @ApiProperty({ enum: ['trading_day'], example: 'trading_day' })
  object: 'trading_day';

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ format: 'date', example: '2025-07-03' })
  date: string;

  @ApiProperty({ example: true })
  is_trading_day: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Holiday closing the market, if any.',
    example: null,
  })
  holiday_name: string | null;

  @ApiProperty({ description: 'Scheduled early close (US: 13:00).', example: true })
  early_close: boolean;

  @ApiProperty({ type: String, nullable: true, example: '2025-07-03T04:00:00-04:00' })
  pre_open: string | null;

  @ApiProperty({ type: String, nullable: true, example: '2025-07-03T09:30:00-04:00' })
  open: string | null;

  @ApiProperty({ type: String, nullable: true, example: '2025-07-03T13:00:00-04:00' })
  close: string | null;

  @ApiProperty({ type: String, nullable: true, example: '2025-07-03T17:00:00-04:00' })
  post_close: string | null;
}

export class MarketClockQuery {
  @ApiPropertyOptional({
    description: 'Instant to evaluate the clock at (ISO 8601 date-time); defaults to now.',
    example: '2025-07-03T17:30:00Z',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  at?: string;
}

export class MarketCalendarQuery {
  @ApiPropertyOptional({
    format: 'date',
    description: 'First date (YYYY-MM-DD); defaults to today in the market.',
    example: '2025-07-01',
  })
  @IsOptional()
  @IsString()
  @MaxLength(10)
  start?: string;

  @ApiPropertyOptional({
    format: 'date',
    description: 'Last date, inclusive; defaults to 30 days after start. At most 366 days after start.',
    example: '2025-07-08',
  })
  @IsOptional()
  @IsString()
  @MaxLength(10)
  end?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    default: 'false',
    description: 'Also list weekends and holidays (is_trading_day false, with holiday_name).',
  })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsIn([true, false], { message: 'include_closed must be true or false' })
  include_closed?: boolean;
}
