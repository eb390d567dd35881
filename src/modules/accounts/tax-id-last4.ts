/**
 * The last four letters or digits of a tax id (separators dropped), kept in clear beside the
 * encrypted tax id so it can be shown (`*****6789`) without decrypting anything.
 */
export function taxIdLast4(taxId: string | null): string | null {
  return taxId === null ? null : taxId.replace(/[^A-Z0-9]/gi, '').slice(-4);
}
