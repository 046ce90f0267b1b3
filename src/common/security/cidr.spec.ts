import { addressIn, addressList, isCidr } from './cidr';

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
