import { addressIn, addressList, cidrsOutside, coversEveryAddress, isCidr } from './cidr';

describe('isCidr (docs/reference/keys-and-audit.md#41-where-a-key-may-be-used-from)', () => {
  it.each([
    '10.0.0.0/8',
    '10.0.0.5/8',
    '203.0.113.7',
    '203.0.113.7/32',
    '0.0.0.0/0',
    '2001:db8::/32',
    '2001:DB8::1',
    '::1/128',
    '::/0',
    '::ffff:10.0.0.0/104',
  ])('accepts %j', (text) => {
    expect(isCidr(text)).toBe(true);
  });

  it.each([
    '',
    '10.0.0.0/33',
    '2001:db8::/129',
    '10.0.0.0/',
    '10.0.0.0/08',
    '10.0.0/8',
    '256.0.0.0/8',
    '10.0.0.0/8 ',
    ' 10.0.0.0/8',
    '10.0.0.0/255.0.0.0',
    'fe80::1%eth0',
    'fe80::1%eth0/64',
    'localhost',
    'loopback',
    '10.0.0.0/-1',
    12,
    null,
  ])('refuses %j', (value) => {
    expect(isCidr(value)).toBe(false);
  });
});

describe('addressIn', () => {
  const list = addressList(['10.0.0.5/8', '203.0.113.7', '2001:db8::/32']);

  it.each<[string | undefined, boolean]>([
    ['10.0.0.1', true],
    ['10.255.255.255', true],
    ['11.0.0.1', false],
    ['203.0.113.7', true],
    ['203.0.113.8', false],
    // A dual-stack socket reports IPv4 clients in their IPv4-mapped IPv6 form.
    ['::ffff:10.1.2.3', true],
    ['::ffff:11.1.2.3', false],
    ['2001:db8:ffff::1', true],
    ['2001:db9::1', false],
    ['not an address', false],
    [undefined, false],
  ])('%j is in the list: %j', (address, expected) => {
    expect(addressIn(list, address)).toBe(expected);
  });

  it('an empty list holds no address', () => {
    expect(addressIn(addressList([]), '10.0.0.1')).toBe(false);
  });
});

describe('IPv6 CIDRs and IPv4 clients (docs/reference/keys-and-audit.md#41-where-a-key-may-be-used-from)', () => {
  it.each<[string, string, boolean]>([
    // Every IPv6 address, and no IPv4 one: an IPv4 client is in ::/0 only through ::ffff:0:0/96.
    ['::/0', '10.0.0.1', false],
    ['::/0', '::ffff:10.0.0.1', false],
    ['::/0', '2001:db8::1', true],
    ['::/0', '::1', true],
    ['::/1', '10.0.0.1', false],
    ['::/95', '10.0.0.1', false],
    ['::ffff:0:0/95', '10.0.0.1', false],
    ['::ffff:0:0/95', '::fffe:0:1', true],
    ['::/96', '10.0.0.1', false],
    ['::10.0.0.0/104', '10.0.0.1', false],
    ['2001:db8::/32', '10.0.0.1', false],
    // Inside ::ffff:0:0/96: the IPv4 network it maps, in either form of the client.
    ['::ffff:0:0/96', '10.0.0.1', true],
    ['::ffff:0:0/96', '::ffff:10.0.0.1', true],
    ['::ffff:0:0/96', '2001:db8::1', false],
    ['::ffff:10.0.0.0/104', '10.1.2.3', true],
    ['::ffff:10.0.0.0/104', '::ffff:a01:203', true],
    ['::ffff:10.0.0.0/104', '11.0.0.1', false],
    ['::FFFF:7F00:1', '127.0.0.1', true],
    ['::ffff:127.0.0.1/128', '127.0.0.2', false],
    // IPv4 CIDRs: both forms of an IPv4 client, never an IPv6 one.
    ['10.0.0.0/8', '::ffff:10.0.0.1', true],
    ['0.0.0.0/0', '2001:db8::1', false],
    ['0.0.0.0/0', '::a00:1', false],
    // A zone on a link-local client address is no part of the address.
    ['fe80::/10', 'fe80::1%eth0', true],
  ])('%s holds %s: %p', (cidr, address, expected) => {
    expect(addressIn(addressList([cidr]), address)).toBe(expected);
  });
});

describe('cidrsOutside (docs/reference/keys-and-audit.md#110-a-keys-children)', () => {
  it.each<[string[], string[], number[]]>([
    [['203.0.113.0/24'], ['203.0.113.0/24', '203.0.113.128/25', '203.0.113.7'], []],
    [['203.0.113.0/24'], ['203.0.113.0/23', '198.51.100.0/24', '0.0.0.0/0'], [0, 1, 2]],
    // Host bits are ignored on both sides.
    [['203.0.113.9/24'], ['203.0.113.200/25'], []],
    // An IPv4-mapped CIDR is its IPv4 network, either side.
    [['203.0.113.0/24'], ['::ffff:203.0.113.0/120', '::ffff:203.0.113.0/119'], [1]],
    [['::ffff:10.0.0.0/104'], ['10.1.0.0/16', '11.0.0.0/16'], [1]],
    // ::/0 holds every IPv6 network, no IPv4 one.
    [['::/0'], ['2001:db8::/32', '10.0.0.0/8', '::ffff:10.0.0.0/104'], [1, 2]],
    [['10.0.0.0/8'], ['::/0', '10.0.0.0/8', '2001:db8::1'], [0, 2]],
    [['2001:db8::/32', '10.0.0.0/8'], ['2001:db8:1::/48', '10.9.0.0/16', '2001:db9::/32'], [2]],
    [[], ['10.0.0.1'], [0]],
  ])('outer %j, inner %j: outside at %j', (outer, inner, expected) => {
    expect(cidrsOutside(outer, inner)).toEqual(expected);
  });
});

describe('coversEveryAddress (TRUST_PROXY: docs/configuration.md)', () => {
  it.each<[string[], boolean]>([
    [['0.0.0.0/0'], true],
    [['::/0'], true],
    [['0.0.0.0/1', '128.0.0.0/1'], true],
    [['128.0.0.0/1', '10.0.0.0/8', '0.0.0.0/1'], true],
    [['::ffff:0:0/96'], true],
    [['0.0.0.0/1', '128.0.0.0/2'], false],
    [['10.0.0.0/8', '2001:db8::/32'], false],
    [['0.0.0.0/1', '::/1'], false],
    [[], false],
  ])('%j: %j', (cidrs, every) => {
    expect(coversEveryAddress(cidrs)).toBe(every);
  });
});
