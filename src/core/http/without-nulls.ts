/** A body's optional fields sent as null count as left out (validation lets null through optional fields). */
export function withoutNulls<T extends object>(body: T): T {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null)) as T;
}
