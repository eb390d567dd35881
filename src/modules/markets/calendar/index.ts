export * from 'src/modules/markets/calendar/calendar-date';
export * from 'src/modules/markets/calendar/exchange-holidays';
export * from 'src/modules/markets/calendar/market-clock';
export * from 'src/modules/markets/calendar/market-definitions';
export * from 'src/modules/markets/calendar/trading-calendar';
export * from 'src/modules/markets/calendar/zoned-time';
