/** Local wall-clock hours, 'HH:MM' in the market's time zone; '24:00' is the following midnight. */
export interface SessionHours {
  start: string;
  end: string;
}

/** Which holiday set a market closes for; see exchange-holidays.ts. */
export type HolidayCalendarId = 'NYSE' | 'NG' | 'KE';

export interface MarketDefinition {
  /** ISO 10383 style market code. */
  code: string;
  name: string;
  display_name: string;
  /** ISO 3166-1 alpha-2, upper case; null for venues with no home country. */
  country: string | null;
  /** ISO 4217 */
  currency: string;
  /** IANA time zone of the session hours. */
  timezone: string;
  sessions: {
    pre: SessionHours | null;
    regular: SessionHours;
    post: SessionHours | null;
  };
  /** Hours used instead on scheduled early-close days; null when the market has none. */
  early_close_sessions: { regular: SessionHours; post: SessionHours | null } | null;
  /** null = trades every day of the year (no weekends, no holidays). */
  holiday_calendar: HolidayCalendarId | null;
}

const US_SESSIONS: MarketDefinition['sessions'] = {
  pre: { start: '04:00', end: '09:30' },
  regular: { start: '09:30', end: '16:00' },
  post: { start: '16:00', end: '20:00' },
};

// On early-close days the regular session ends at 13:00 and the extended session at 17:00
// (NYSE Arca late trading and the Nasdaq post-market both stop four hours after the close).
const US_EARLY_CLOSE: MarketDefinition['early_close_sessions'] = {
  regular: { start: '09:30', end: '13:00' },
  post: { start: '13:00', end: '17:00' },
};

function usMarket(code: string, name: string, displayName: string): MarketDefinition {
  return {
    code,
    name,
    display_name: displayName,
    country: 'US',
    currency: 'USD',
    timezone: 'America/New_York',
    sessions: US_SESSIONS,
    early_close_sessions: US_EARLY_CLOSE,
    holiday_calendar: 'NYSE',
  };
}

export const MARKETS: readonly MarketDefinition[] = [
  usMarket('XNAS', 'Nasdaq Stock Market', 'NASDAQ'),
  usMarket('XNYS', 'New York Stock Exchange', 'NYSE'),
  usMarket('ARCA', 'NYSE Arca', 'NYSE Arca'),
  usMarket('BATS', 'Cboe BZX Exchange', 'Cboe BZX'),
  usMarket('OTC', 'OTC Markets', 'OTC Markets'),
  {
    code: 'XNSA',
    name: 'Nigerian Exchange',
    display_name: 'NGX',
    country: 'NG',
    currency: 'NGN',
    timezone: 'Africa/Lagos',
    sessions: { pre: null, regular: { start: '10:00', end: '14:30' }, post: null },
    early_close_sessions: null,
    holiday_calendar: 'NG',
  },
  {
    code: 'XNAI',
    name: 'Nairobi Securities Exchange',
    display_name: 'NSE',
    country: 'KE',
    currency: 'KES',
    timezone: 'Africa/Nairobi',
    sessions: { pre: null, regular: { start: '09:00', end: '15:00' }, post: null },
    early_close_sessions: null,
    holiday_calendar: 'KE',
  },
  {
    code: 'CRYPTO',
    name: 'Crypto',
    display_name: 'Crypto',
    country: null,
    currency: 'USD',
    timezone: 'UTC',
    sessions: { pre: null, regular: { start: '00:00', end: '24:00' }, post: null },
    early_close_sessions: null,
    holiday_calendar: null,
  },
];

const BY_CODE = new Map(MARKETS.map((market) => [market.code, market]));

/** Case-insensitive lookup ('xnys' finds XNYS). */
export function getMarket(code: string): MarketDefinition | undefined {
  return typeof code === 'string' ? BY_CODE.get(code.trim().toUpperCase()) : undefined;
}
