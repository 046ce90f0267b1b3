import { BlockList, isIP } from 'node:net';

/**
 * The SSRF policy for stored URLs. Host names are not resolved: the answer at write time says nothing
 * of the one at delivery (DNS rebinding), so whoever connects checks the address (checkAddress).
 */
export interface UrlPolicyOptions {
  /** Exact hosts, or `*.example.com` for any subdomain of example.com. Empty: any host. */
  allowedHosts: string[];
  /** Also refuse loopback, private, link-local and CGNAT addresses and `localhost`. */
  blockPrivateIps: boolean;
  /** Named by the refusal as the way out (docs/reference/hardening.md). */
  privateIpsVariable?: string;
}

const NO_HOST = 'must have a host';
const METADATA = 'points to a cloud metadata address';
const PRIVATE = 'points to a private or loopback address';
const NOT_ALLOWED = 'host is not in the allowed hosts list';

function blockList(subnets: readonly (readonly [network: string, prefix: number])[]): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of subnets) {
    list.addSubnet(network, prefix, isIP(network) === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

const CLOUD_METADATA_ADDRESSES = blockList([
  ['169.254.169.254', 32], // AWS, Azure, GCP, Oracle, DigitalOcean, OpenStack
  ['169.254.170.2', 32], // AWS ECS task credentials
  ['100.100.100.200', 32], // Alibaba Cloud
  ['fd00:ec2::254', 128], // AWS over IPv6
]);

const UNSPECIFIED_ADDRESSES = blockList([
  ['0.0.0.0', 8],
  ['::', 128],
]);

const PRIVATE_ADDRESSES = blockList([
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
  ['100.64.0.0', 10],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10], // deprecated site-local, still routed privately by some stacks
]);

// IPv6 forms whose last 32 bits are an IPv4 address that the packet may end up at: IPv4-mapped,
// SIIT-translated, IPv4-compatible (deprecated) and NAT64 (well-known and local-use prefixes).
const EMBEDS_IPV4 = blockList([
  ['::ffff:0:0', 96],
  ['::ffff:0:0:0', 96],
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
]);

interface Address {
  address: string;
  family: 'ipv4' | 'ipv6';
}

type Host = { kind: 'address'; addresses: Address[]; key: string } | { kind: 'name'; key: string };

export function checkUrl(raw: string, options: UrlPolicyOptions): string | null {
  // WHATWG URL silently strips or drops these; refusing them keeps every parser seeing the same host.
  if (/[\s\p{Cc}]/u.test(raw)) return 'must not contain whitespace or control characters';

  const scheme = /^([a-z][a-z\d+.-]*):/i.exec(raw)?.[1]?.toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return 'must be an http or https URL';
  // WHATWG URL accepts `http:host`, `http:\\host` and `http:///host`; RFC 3986 sees no host in them.
  if (!hasAuthority(raw.slice(scheme.length + 1))) return NO_HOST;

  const url = URL.parse(raw);
  if (url === null) return 'must be a valid URL';
  const host = hostOf(url.hostname);
  if (host === null) return NO_HOST;

  const refusal =
    host.kind === 'address' ? refuseAddress(host.addresses, options) : refuseName(host.key, options);
  if (refusal !== null) return refusal;

  if (options.allowedHosts.length > 0 && !isAllowedHost(host, options.allowedHosts)) return NOT_ALLOWED;
  return null;
}

function hasAuthority(afterScheme: string): boolean {
  if (!afterScheme.startsWith('//')) return false;
  const authority = afterScheme.slice(2).split(/[/?#\\]/, 1)[0] ?? '';
  const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
  return hostAndPort !== '' && !hostAndPort.startsWith(':');
}

/** Classifies a hostname as serialised by WHATWG URL (lower case, IPv4 in dotted decimal). */
function hostOf(hostname: string): Host | null {
  if (hostname.startsWith('[')) {
    const address = hostname.slice(1, -1);
    const embedded = embeddedIpv4(address);
    const addresses: Address[] = [{ address, family: 'ipv6' }];
    if (embedded !== null) addresses.push({ address: embedded, family: 'ipv4' });
    return { kind: 'address', addresses, key: address };
  }

  // `169.254.169.254..` or `0xa9fea9fe.` are domains to WHATWG URL but numbers to many resolvers.
  const stripped = hostname.replace(/\.+$/, '');
  if (stripped === '') return null;
  const canonical =
    stripped === hostname ? hostname : (URL.parse(`http://${stripped}/`)?.hostname ?? stripped);
  if (isIP(canonical) === 4) {
    return { kind: 'address', addresses: [{ address: canonical, family: 'ipv4' }], key: canonical };
  }
  return { kind: 'name', key: canonical };
}

/** At connection time, for an address a name resolved to: what refuses a URL with it refuses it. */
export function checkAddress(address: string, options: UrlPolicyOptions): string | null {
  const host = hostOf(isIP(address) === 6 ? `[${address}]` : address);
  return host?.kind === 'address' ? refuseAddress(host.addresses, options) : null;
}

function refuseAddress(addresses: readonly Address[], options: UrlPolicyOptions): string | null {
  const matches = (list: BlockList): boolean => addresses.some((a) => list.check(a.address, a.family));
  if (matches(CLOUD_METADATA_ADDRESSES)) return METADATA;
  if (matches(UNSPECIFIED_ADDRESSES)) return 'points to an unspecified address';
  if (options.blockPrivateIps && matches(PRIVATE_ADDRESSES)) return privateRefusal(options);
  return null;
}

function privateRefusal(options: UrlPolicyOptions): string {
  const variable = options.privateIpsVariable;
  return variable ? `${PRIVATE} (set ${variable}=false to allow private addresses)` : PRIVATE;
}

function refuseName(name: string, options: UrlPolicyOptions): string | null {
  if (name === 'metadata.google.internal') return METADATA;
  if (options.blockPrivateIps && (name === 'localhost' || name.endsWith('.localhost'))) {
    return privateRefusal(options);
  }
  return null;
}

function embeddedIpv4(address: string): string | null {
  if (!EMBEDS_IPV4.check(address, 'ipv6')) return null;
  const groups = ipv6Groups(address);
  if (groups === null) return null;
  const [high, low] = [groups[6] ?? 0, groups[7] ?? 0];
  // `::`, `::1` and the rest of ::/104 are IPv6 addresses in their own right, not IPv4-compatible ones.
  if (groups.slice(0, 6).every((group) => group === 0) && high < 0x100) return null;
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** Expands an IPv6 address in the form WHATWG URL serialises it (hex groups, at most one `::`). */
function ipv6Groups(address: string): number[] | null {
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const parse = (half: string): string[] => (half === '' ? [] : half.split(':'));
  const head = parse(halves[0] ?? '');
  const tail = halves.length === 2 ? parse(halves[1] ?? '') : [];
  const missing = 8 - head.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const hex = [...head, ...Array<string>(missing).fill('0'), ...tail];
  if (!hex.every((group) => /^[\da-f]{1,4}$/i.test(group))) return null;
  return hex.map((group) => Number.parseInt(group, 16));
}

type HostPattern = { exact: string } | { suffix: string };

function isAllowedHost(host: Host, allowedHosts: readonly string[]): boolean {
  return allowedHosts.some((entry) => {
    const pattern = hostPattern(entry);
    if (pattern === null) return false;
    if ('exact' in pattern) return host.key === pattern.exact;
    return host.kind === 'name' && host.key.endsWith(`.${pattern.suffix}`);
  });
}

/** Canonicalises an allowed-hosts entry the way the URL parser canonicalises a URL's host. */
function hostPattern(entry: string): HostPattern | null {
  const normalized = entry.trim().toLowerCase();
  const wildcard = normalized.startsWith('*.');
  const host = canonicalHost(wildcard ? normalized.slice(2) : normalized);
  if (host === null) return null;
  if (!wildcard) return { exact: host.key };
  return host.kind === 'name' ? { suffix: host.key } : null;
}

function canonicalHost(value: string): Host | null {
  const unbracketed = value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value;
  const ipv6 = isIP(unbracketed) === 6;
  // Hosts only: an entry with a port, a path or credentials never matches.
  if (!ipv6 && (value === '' || /[\s/?#@:\\[\]]/.test(value))) return null;
  const url = URL.parse(`http://${ipv6 ? `[${unbracketed}]` : value}/`);
  return url === null ? null : hostOf(url.hostname);
}
