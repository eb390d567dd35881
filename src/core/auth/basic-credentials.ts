/**
 * The public key and secret of an HTTP Basic Authorization header, or null when the header is
 * absent, another scheme, or unreadable.
 */
export function basicCredentials(header: string | undefined): { publicKey: string; secret: string } | null {
  if (!header || header.length <= 6 || header.slice(0, 6).toLowerCase() !== 'basic ') {
    return null;
  }
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? { publicKey: decoded.slice(0, colon), secret: decoded.slice(colon + 1) } : null;
}
