/**
 * The end of a switch over a union or enum: the compiler refuses the call while a member has no
 * case, and a value outside the type (bad data, a cast) throws instead of falling into a default.
 */
export function assertUnreachable(value: never, what = 'value'): never {
  throw new Error(`Unexpected ${what}: ${String(value)}`);
}
