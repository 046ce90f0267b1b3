import { isIP } from 'node:net';

/** `address/prefix` or a bare address (one host); no zone (`%eth0`), no spaces. */
const CIDR = /^([0-9A-Fa-f:.]+)(?:\/(\d{1,3}))?$/;

/**
 * A network as the address checks compare it: IPv4, or IPv6 outside `::ffff:0:0/96`. An IPv6 CIDR
 * inside `::ffff:0:0/96` (`::ffff:10.0.0.0/104`) is the IPv4 network it maps, so that it and the
 * IPv4 CIDR of the same addresses are one network; any other IPv6 CIDR holds no IPv4 address, even
 * `::/0`.
 */
export interface Network {
  readonly family: 4 | 6;
  /** The address with its host bits cleared. */
  readonly base: bigint;
  readonly prefix: number;
}

const BITS = { 4: 32, 6: 128 } as const;
/** The first 96 bits of every IPv4-mapped IPv6 address (`::ffff:0:0/96`), as a number. */
const MAPPED = 0xffffn;

function ipv4Value(text: string): bigint {
  return text.split('.').reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n);
}

/** An address that passed isIP as IPv6, as 128 bits (an IPv4 tail, `::ffff:1.2.3.4`, included). */
function ipv6Value(text: string): bigint {
  const groups = (part: string): bigint[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [BigInt(parseInt(group, 16))];
          const v4 = ipv4Value(group);
          return [v4 >> 16n, v4 & 0xffffn];
        });
  const [head, tail] = text.split('::');
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = [...front, ...Array<bigint>(8 - front.length - back.length).fill(0n), ...back];
  return all.reduce((value, group) => (value << 16n) | group, 0n);
}

const mask = (family: 4 | 6, prefix: number): bigint => {
  const bits = BigInt(BITS[family]);
  return ((1n << bits) - 1n) ^ ((1n << (bits - BigInt(prefix))) - 1n);
};

/** IPv6 in `::ffff:0:0/96` (prefix 96 or more) as the IPv4 it maps; any other as it is. */
function network(family: 4 | 6, value: bigint, prefix: number): Network {
  if (family === 6 && prefix >= 96 && value >> 32n === MAPPED) {
    return network(4, value & 0xffffffffn, prefix - 96);
  }
  return { family, base: value & mask(family, prefix), prefix };
}

function parseCidr(text: string): Network | null {
  const match = CIDR.exec(text);
  if (!match) return null;
  const version = isIP(match[1]);
  if (version !== 4 && version !== 6) return null;
  const bits = BITS[version];
  // A prefix with a leading zero (`/08`) is refused: it reads as a typo.
  if (match[2] !== undefined && (+match[2] > bits || /^0\d/.test(match[2]))) return null;
  const value = version === 4 ? ipv4Value(match[1]) : ipv6Value(match[1]);
  return network(version, value, match[2] === undefined ? bits : +match[2]);
}

/** A client address (Express's `req.ip`, a zone dropped) as a one-host network; null when it is none. */
function parseAddress(address: string | undefined): Network | null {
  const text = address?.split('%')[0] ?? '';
  const version = isIP(text);
  if (version === 4) return network(4, ipv4Value(text), 32);
  if (version === 6) return network(6, ipv6Value(text), 128);
  return null;
}

/** `inner` lies inside `outer`: same family, at least as long a prefix, the same leading bits. */
function inside(inner: Network, outer: Network): boolean {
  return (
    inner.family === outer.family &&
    inner.prefix >= outer.prefix &&
    (inner.base & mask(outer.family, outer.prefix)) === outer.base
  );
}

/** An IPv4 or IPv6 CIDR (`10.0.0.0/8`, `2001:db8::/32`), or one address (`203.0.113.7`). */
export function isCidr(value: unknown): value is string {
  return typeof value === 'string' && parseCidr(value) !== null;
}

/** The networks of a CIDR list, for {@link addressIn}. */
export type AddressList = readonly Network[];

/**
 * The networks of `cidrs`; every element must pass {@link isCidr}. Host bits are ignored
 * (`10.0.0.5/8` is `10.0.0.0/8`).
 */
export function addressList(cidrs: readonly string[]): AddressList {
  return cidrs.map((text) => {
    const parsed = parseCidr(text);
    if (!parsed) throw new Error(`not a CIDR: ${text}`);
    return parsed;
  });
}

/**
 * Whether `address` (a client address as Express reports it) is in the list. An IPv4 client is the
 * same whether the socket reports it as `10.1.2.3` or, dual-stack, as `::ffff:10.1.2.3`: an IPv4 CIDR
 * holds both, an IPv6 CIDR only when it lies inside `::ffff:0:0/96`. An unknown address is in no list.
 */
export function addressIn(list: AddressList, address: string | undefined): boolean {
  const client = parseAddress(address);
  return client !== null && list.some((net) => inside(client, net));
}

/**
 * The indexes of the elements of `inner` that do not lie inside one of `outer`'s CIDRs: the CIDRs
 * of a key that a key bound to `outer` may not hand out (docs/reference/keys-and-audit.md#110-a-keys-children).
 * Every element of both must pass {@link isCidr}.
 */
export function cidrsOutside(outer: readonly string[], inner: readonly string[]): number[] {
  const networks = addressList(outer);
  return inner.flatMap((text, index) => {
    const net = parseCidr(text);
    return net !== null && networks.some((o) => inside(net, o)) ? [] : [index];
  });
}

/**
 * The CIDRs together hold every IPv4 address or every IPv6 address (an IPv6 CIDR inside
 * `::ffff:0:0/96` counting as the IPv4 it maps): `0.0.0.0/0`, `::/0`, `0.0.0.0/1,128.0.0.0/1`. A
 * TRUST_PROXY list that does trusts every hop (docs/configuration.md). Elements that are no CIDR
 * are left out.
 */
export function coversEveryAddress(cidrs: readonly string[]): boolean {
  const networks = cidrs.map(parseCidr).filter((net): net is Network => net !== null);
  return ([4, 6] as const).some((family) => {
    const size = 1n << BigInt(BITS[family]);
    const ranges = networks
      .filter((net) => net.family === family)
      .map((net) => ({ start: net.base, end: net.base + (size >> BigInt(net.prefix)) }))
      .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
    let next = 0n;
    for (const { start, end } of ranges) {
      if (start > next) return false;
      if (end > next) next = end;
    }
    return next === size;
  });
}
