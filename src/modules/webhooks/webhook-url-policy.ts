import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, LookupAddress } from 'node:dns';

/**
 * Where webhooks may be sent. Strict mode (production deployments, and live keys anywhere):
 * https only, and the host must resolve only to public addresses — never private (10/8,
 * 172.16/12, 192.168/16), loopback, link-local (169.254/16 with the cloud metadata address,
 * fe80::/10), unique-local (fc00::/7), CGNAT (100.64/10), 0.0.0.0/8, multicast or reserved
 * ranges. The check runs at registration and again when each delivery connects, on the very
 * address the socket uses (so a DNS answer that changes in between cannot redirect it).
 * Sandbox test keys may use http and loopback receivers.
 */
const FORBIDDEN = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  FORBIDDEN.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  FORBIDDEN.addSubnet(net, bits, 'ipv6');
}

export const MAX_URL_LENGTH = 2048;

export class UrlRefusedError extends Error {}

/** The IPv4 address embedded in NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses, if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const groups = (prefixLen: number): number[] | undefined => {
    const expanded = expandIpv6(lower);
    return expanded?.slice(prefixLen, prefixLen + 2);
  };
  let pair: number[] | undefined;
  if (lower.startsWith('64:ff9b::')) {
    pair = groups(6);
  } else if (lower.startsWith('2002:')) {
    pair = groups(1);
  }
  if (!pair || pair.length < 2) {
    return undefined;
  }
  return [pair[0] >> 8, pair[0] & 255, pair[1] >> 8, pair[1] & 255].join('.');
}

function expandIpv6(address: string): number[] | undefined {
  const [head, tail] = address.split('::');
  const parse = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const h = parse(head);
  const t = parse(tail);
  if (address.includes('.') || [...h, ...t].some((g) => Number.isNaN(g))) {
    return undefined;
  }
  return tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
}

/** True for any address a strict-mode webhook must never reach. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) {
    return FORBIDDEN.check(address, 'ipv4');
  }
  if (family === 6) {
    const inner = embeddedIpv4(address);
    return FORBIDDEN.check(address, 'ipv6') || (inner !== undefined && FORBIDDEN.check(inner, 'ipv4'));
  }
  return true;
}

/** Host part of a URL without IPv6 brackets. */
export function urlHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Shape checks that need no network: scheme, credentials, length. Returns the parsed URL. */
export function checkUrlShape(raw: string, strict: boolean): URL {
  if (raw.length > MAX_URL_LENGTH) {
    throw new UrlRefusedError(`url must be at most ${MAX_URL_LENGTH} characters.`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefusedError('url must be an absolute http(s) URL, such as https://example.com/webhooks.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UrlRefusedError('url must use https.');
  }
  if (strict && url.protocol !== 'https:') {
    throw new UrlRefusedError('url must use https in production and with live keys.');
  }
  if (url.username || url.password) {
    throw new UrlRefusedError('url must not carry credentials; authenticate requests with the signature.');
  }
  if (url.hash) {
    throw new UrlRefusedError('url must not have a fragment.');
  }
  return url;
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses),
    ),
  );
}

/** Resolves the host (every address) and refuses it when any address is not public. */
export async function assertPublicHost(host: string): Promise<void> {
  if (isIP(host)) {
    if (isForbiddenAddress(host)) {
      throw new UrlRefusedError(`url must not point to a private, loopback or link-local address (${host}).`);
    }
    return;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch {
    throw new UrlRefusedError(`url host ${host} could not be resolved.`);
  }
  const bad = addresses.find((a) => isForbiddenAddress(a.address));
  if (addresses.length === 0 || bad) {
    throw new UrlRefusedError(
      `url host ${host} resolves to a private, loopback or link-local address${bad ? ` (${bad.address})` : ''}.`,
    );
  }
}

/** Full registration check. */
export async function checkWebhookUrl(raw: string, strict: boolean): Promise<URL> {
  const url = checkUrlShape(raw, strict);
  if (strict) {
    await assertPublicHost(urlHost(url));
  }
  return url;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * `lookup` for http(s).request in strict mode: resolves, refuses the connection if any address
 * is not public, and hands the checked addresses to the socket (no second resolution).
 */
export function publicOnlyLookup(
  hostname: string,
  options: { all?: boolean },
  callback: LookupCallback,
): void {
  resolveAll(hostname).then(
    (addresses) => {
      const bad = addresses.find((a) => isForbiddenAddress(a.address));
      if (addresses.length === 0 || bad) {
        const err: NodeJS.ErrnoException = new UrlRefusedError(
          `url host ${hostname} resolves to a private, loopback or link-local address${bad ? ` (${bad.address})` : ''}`,
        );
        err.code = 'EADDRREFUSED';
        callback(err, '');
        return;
      }
      if (options.all) {
        callback(null, addresses);
      } else {
        callback(null, addresses[0].address, addresses[0].family);
      }
    },
    (err: NodeJS.ErrnoException) => callback(err, ''),
  );
}
