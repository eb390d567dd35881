import Holidays from 'date-holidays';
import { HolidayCalendarId } from 'src/modules/markets/calendar/market-definitions';

/**
 * Holiday dates come from `date-holidays`: a maintained, versioned rule set (Easter computus, Islamic
 * calendar, weekend substitution, new holidays such as Juneteenth) that stays correct for future years
 * without anyone re-typing dates each January. Only the exchange-specific differences live here.
 *
 * The library has no stock-exchange calendars, so NYSE days are derived from its US federal data:
 * keep the federal holidays NYSE observes, add Good Friday, and apply NYSE Rule 7.2 where it departs
 * from the federal rules (see `nyseHolidays`).
 */

/** NYSE-observed rules in the library's US data, with the names NYSE publishes. */
const NYSE_RULES = new Map<string, string>([
  ['01-01 and if sunday then next monday if saturday then previous friday', "New Year's Day"],
  ['3rd monday in January', 'Martin Luther King Jr. Day'],
  ['3rd monday in February', "Washington's Birthday"],
  ['easter -2', 'Good Friday'],
  ['monday before 06-01', 'Memorial Day'],
  ['06-19 and if sunday then next monday if saturday then previous friday since 2021', 'Juneteenth'],
  ['07-04 and if sunday then next monday if saturday then previous friday', 'Independence Day'],
  ['1st monday in September', 'Labor Day'],
  ['4th thursday in November', 'Thanksgiving Day'],
  ['12-25 and if sunday then next monday if saturday then previous friday', 'Christmas Day'],
]);

// NYSE first closed for Juneteenth in 2022; the federal holiday dates from 2021.
const NYSE_JUNETEENTH_FROM = 2022;

type HolidayMap = Map<string, string>;

const instances = new Map<HolidayCalendarId, Holidays>();
const byYear = new Map<string, HolidayMap>();

function library(calendar: HolidayCalendarId): Holidays {
  let instance = instances.get(calendar);
  if (!instance) {
    if (calendar === 'NYSE') {
      instance = new Holidays('US', { types: ['public'] });
      instance.setHoliday('easter -2', { name: 'Good Friday', type: 'public' });
    } else {
      instance = new Holidays(calendar, { types: ['public'] });
      if (calendar === 'NG') {
        // The library files Children's Day (27 May) as public because its `type: school` sits inside
        // the name block; it is a school-only holiday and the exchange trades.
        instance.unsetRule('05-27');
      }
    }
    instances.set(calendar, instance);
  }
  return instance;
}

/**
 * NYSE rules the installed library no longer knows. A library upgrade that rewrites a rule would
 * otherwise silently reopen the market on that holiday; a unit test keeps this list empty.
 */
export function missingNyseRules(): string[] {
  // The typings leave the rule text off HolidayRule although every rule object carries it.
  const rules = library('NYSE').getRules() as unknown as { rule: string }[];
  const known = new Set(rules.map((holiday) => holiday.rule));
  return [...NYSE_RULES.keys()].filter((rule) => !known.has(rule));
}

/** Whole local days a library holiday covers (Eid al-Fitr in Nigeria spans two). */
function spanDays(start: Date, end: Date): number {
  return Math.max(1, Math.round((end.getTime() - start.getTime()) / 86_400_000));
}

function nyseHolidays(year: number): HolidayMap {
  const result: HolidayMap = new Map();
  for (const holiday of library('NYSE').getHolidays(year, 'en')) {
    const name = NYSE_RULES.get(holiday.rule);
    const date = holiday.date.slice(0, 10);
    if (!name) {
      continue; // Columbus Day, Veterans Day and other federal days: NYSE trades.
    }
    if (name === 'Juneteenth' && year < NYSE_JUNETEENTH_FROM) {
      continue;
    }
    // Rule 7.2: a Saturday holiday closes the Friday before, except when that Friday ends a monthly or
    // yearly accounting period, so New Year's Day on a Saturday closes nothing.
    if (name === "New Year's Day" && holiday.substitute && date.endsWith('-12-31')) {
      continue;
    }
    result.set(date, holiday.substitute ? `${name} (observed)` : name);
  }
  return result;
}

function countryHolidays(calendar: HolidayCalendarId, year: number): HolidayMap {
  const result: HolidayMap = new Map();
  for (const holiday of library(calendar).getHolidays(year, 'en')) {
    if (holiday.type !== 'public') {
      continue;
    }
    const first = Date.parse(`${holiday.date.slice(0, 10)}T00:00:00Z`);
    for (let i = 0; i < spanDays(holiday.start, holiday.end); i++) {
      const date = new Date(first + i * 86_400_000).toISOString().slice(0, 10);
      if (!result.has(date)) {
        result.set(date, holiday.name);
      }
    }
  }
  return result;
}

/** Holidays the library lists for `year` (a multi-day one may run into January), keyed by 'YYYY-MM-DD'. */
export function holidaysInYear(calendar: HolidayCalendarId, year: number): ReadonlyMap<string, string> {
  const key = `${calendar}:${year}`;
  let holidays = byYear.get(key);
  if (!holidays) {
    holidays = calendar === 'NYSE' ? nyseHolidays(year) : countryHolidays(calendar, year);
    byYear.set(key, holidays);
  }
  return holidays;
}

/** The holiday name on `isoDate`, or null. Dates spilling into the next year are looked up there too. */
export function holidayName(calendar: HolidayCalendarId, isoDate: string): string | null {
  const year = Number(isoDate.slice(0, 4));
  return (
    holidaysInYear(calendar, year).get(isoDate) ?? holidaysInYear(calendar, year - 1).get(isoDate) ?? null
  );
}

/**
 * NYSE early closes (13:00): the day after Thanksgiving, and 3 July and 24 December when they are
 * ordinary weekdays. When 4 July falls on a Saturday, 3 July is itself the observed holiday and no
 * other day closes early; when 25 December is a Saturday, 24 December is the observed holiday.
 */
export function nyseEarlyClose(isoDate: string, isWeekday: boolean): boolean {
  if (!isWeekday || holidayName('NYSE', isoDate)) {
    return false;
  }
  const monthDay = isoDate.slice(5);
  if (monthDay === '07-03' || monthDay === '12-24') {
    return true;
  }
  const dayBefore = new Date(Date.parse(`${isoDate}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  return holidayName('NYSE', dayBefore) === 'Thanksgiving Day';
}
