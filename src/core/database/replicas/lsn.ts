/**
 * A PostgreSQL WAL position (`pg_lsn`, printed as two hexadecimal halves `16/B374D848`) as a
 * number that orders the way the log does.
 */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}
