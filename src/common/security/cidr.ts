import { BlockList, isIP } from 'node:net';

/** `address/prefix` or a bare address (one host); no zone (`%eth0`), no spaces. */
const CIDR = /^([0-9A-Fa-f:.]+)(?:\/(\d{1,3}))?$/;

interface Cidr {
  readonly address: string;
  readonly prefix: number;
  readonly family: 'ipv4' | 'ipv6';
}

function parseCidr(text: string): Cidr | null {
  const match = CIDR.exec(text);
  if (!match) return null;
  const version = isIP(match[1]);
  if (version === 0) return null;
  const bits = version === 4 ? 32 : 128;
  // A prefix with a leading zero (`/08`) is refused: it reads as a typo.
  if (match[2] !== undefined && (+match[2] > bits || /^0\d/.test(match[2]))) return null;
  return {
    address: match[1],
    prefix: match[2] === undefined ? bits : +match[2],
    family: version === 4 ? 'ipv4' : 'ipv6',
  };
}

/** An IPv4 or IPv6 CIDR (`10.0.0.0/8`, `2001:db8::/32`), or one address (`203.0.113.7`). */
export function isCidr(value: unknown): value is string {
  return typeof value === 'string' && parseCidr(value) !== null;
}

/**
 * The addresses of a CIDR list, for {@link addressIn}; every element must pass {@link isCidr}. Host
 * bits are ignored (`10.0.0.5/8` is `10.0.0.0/8`); an IPv4 CIDR also holds the IPv4-mapped IPv6 form
 * of its addresses (`::ffff:10.1.2.3`), as a dual-stack socket reports them.
 */
export function addressList(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const text of cidrs) {
    const cidr = parseCidr(text);
    if (!cidr) throw new Error(`not a CIDR: ${text}`);
    list.addSubnet(cidr.address, cidr.prefix, cidr.family);
  }
  return list;
}

/** Whether `address` (a client address as Express reports it) is in the list; an unknown address is not. */
export function addressIn(list: BlockList, address: string | undefined): boolean {
  const version = address === undefined ? 0 : isIP(address);
  if (address === undefined || version === 0) return false;
  return list.check(address, version === 4 ? 'ipv4' : 'ipv6');
}
