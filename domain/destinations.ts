import { BlockList, isIP } from 'node:net';

/**
 * Where the service may send notifications: `https` to a public address, or any host an operator lists
 * in WEBHOOK_ALLOWED_HOSTS. Without this a webhook URL would let any account make the service call its
 * own network (metadata endpoints, the database, the Temporal frontend).
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** True for an address anyone on the internet can reach: not loopback, private, link-local, shared, documentation or multicast. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isPublicAddress(mapped[1]);
    if (/^::ffff:/i.test(address)) return false;
    return !NOT_PUBLIC.check(address, 'ipv6');
  }
  return !NOT_PUBLIC.check(address, 'ipv4');
}

/** A host as it is compared and resolved: lower case, an IPv6 address without brackets. */
const bareHost = (host: string): string => host.toLowerCase().replace(/^\[(.*)\]$/, '$1');

/** `WEBHOOK_ALLOWED_HOSTS`: comma-separated host names or addresses, compared without case. */
export const parseAllowedHosts = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((host) => bareHost(host.trim()))
    .filter(Boolean);

export const hostOf = (url: URL): string => bareHost(url.hostname);

/**
 * What is wrong with a destination before any name is resolved (null: nothing yet): not a URL, a
 * scheme other than https (http only for an allowed host), credentials in it, or a literal address
 * that is not public.
 */
export function destinationIssue(value: string, allowedHosts: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute https URL.';
  }
  const host = hostOf(url);
  const allowed = allowedHosts.includes(host);
  if (url.protocol !== 'https:' && !(allowed && url.protocol === 'http:'))
    return `must use https (got ${url.protocol.replace(/:$/, '')}).`;
  if (url.username || url.password) return 'must not carry a user name or password.';
  if (allowed) return null;
  if (host === 'localhost' || host.endsWith('.localhost'))
    return `must be a public address: ${host} is this machine. An operator can allow it with WEBHOOK_ALLOWED_HOSTS.`;
  if (isIP(host) && !isPublicAddress(host))
    return `must be a public address: ${host} is loopback, private or reserved. An operator can allow it with WEBHOOK_ALLOWED_HOSTS.`;
  return null;
}
