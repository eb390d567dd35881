import { MARKETS } from 'src/modules/markets/calendar';

/** Names partners use for markets (legacy `market` filter): codes, display names and common aliases. */
const ALIASES: Record<string, string> = {
  NASDAQ: 'XNAS',
  NYSE: 'XNYS',
  NYSEARCA: 'ARCA',
  'NYSE ARCA': 'ARCA',
  CBOE: 'BATS',
  'CBOE BZX': 'BATS',
  'OTC MARKETS': 'OTC',
  NGX: 'XNSA',
  NSE: 'XNAI',
};

const BY_NAME = new Map<string, string>([
  ...MARKETS.flatMap((m): [string, string][] => [
    [m.code, m.code],
    [m.display_name.toUpperCase(), m.code],
  ]),
  ...Object.entries(ALIASES),
]);

/** Market code for a code or name, case-insensitive; undefined when unknown. */
export function marketCodeFromName(value: string): string | undefined {
  return BY_NAME.get(value.trim().toUpperCase());
}
