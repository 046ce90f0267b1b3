import { checkAddress, checkUrl, UrlPolicyOptions } from './url-policy';

const open: UrlPolicyOptions = { allowedHosts: [], blockPrivateIps: false };
const strict: UrlPolicyOptions = { allowedHosts: [], blockPrivateIps: true };

const METADATA = 'points to a cloud metadata address';
const UNSPECIFIED = 'points to an unspecified address';
const PRIVATE = 'points to a private or loopback address';
const NOT_HTTP = 'must be an http or https URL';
const NO_HOST = 'must have a host';
const NOT_ALLOWED = 'host is not in the allowed hosts list';

describe('checkUrl', () => {
  describe('scheme and shape', () => {
    it.each<[string, string | null]>([
      ['https://rpc.example.com/v2/KEY', null],
      ['http://rpc.example.com:8545', null],
      ['HTTPS://RPC.EXAMPLE.COM/', null],
      ['https://user:pass@rpc.example.com/', null],
      ['https://rpc.example.com/path?query=1#fragment', null],
      ['ftp://x', NOT_HTTP],
      ['javascript:alert(1)', NOT_HTTP],
      ['ws://rpc.example.com', NOT_HTTP],
      ['file:///etc/passwd', NOT_HTTP],
      ['rpc.example.com', NOT_HTTP],
      ['//rpc.example.com/', NOT_HTTP],
      ['', NOT_HTTP],
      ['http:///nohost', NO_HOST],
      ['http://', NO_HOST],
      ['http://@/', NO_HOST],
      ['http://user:pw@/path', NO_HOST],
      ['http://:8545/', NO_HOST],
      ['http:rpc.example.com', NO_HOST],
      ['http:\\\\rpc.example.com', NO_HOST],
      ['http://./', NO_HOST],
      ['http://[::1', 'must be a valid URL'],
      ['http://1.2.3.4.5/', 'must be a valid URL'],
      ['http://exa%20mple.com/', 'must be a valid URL'],
      [' http://rpc.example.com/', 'must not contain whitespace or control characters'],
      ['http://rpc.example.com/ ', 'must not contain whitespace or control characters'],
      ['http://169.254.\t169.254/', 'must not contain whitespace or control characters'],
      ['http://rpc.example.com/\n', 'must not contain whitespace or control characters'],
    ])('%j -> %j', (url, reason) => {
      expect(checkUrl(url, open)).toBe(reason);
    });
  });

  describe('always refused, whatever the options', () => {
    it.each<[string, string]>([
      ['http://169.254.169.254/', METADATA],
      ['http://169.254.169.254/latest/meta-data/', METADATA],
      ['http://169.254.169.254./', METADATA],
      ['http://169.254.169.254../', METADATA],
      ['http://169.254.169.254:80/', METADATA],
      ['http://user:pw@169.254.169.254/', METADATA],
      ['http://2852039166/', METADATA],
      ['http://0xa9fea9fe/', METADATA],
      ['http://0xA9FEA9FE/', METADATA],
      ['http://0xa9fea9fe./', METADATA],
      ['http://0xa9fea9fe../', METADATA],
      ['http://0251.0376.0251.0376/', METADATA],
      ['http://0xa9.0xfe.0xa9.0xfe/', METADATA],
      ['http://169.254.43518/', METADATA],
      ['http://%31%36%39.254.169.254/', METADATA],
      ['http://[::ffff:169.254.169.254]/', METADATA],
      ['http://[::ffff:a9fe:a9fe]/', METADATA],
      ['http://[0:0:0:0:0:ffff:a9fe:a9fe]/', METADATA],
      ['http://[0000:0000:0000:0000:0000:FFFF:A9FE:A9FE]/', METADATA],
      ['http://[::ffff:0:a9fe:a9fe]/', METADATA],
      ['http://[::169.254.169.254]/', METADATA],
      ['http://[64:ff9b::169.254.169.254]/', METADATA],
      ['http://[64:ff9b::a9fe:a9fe]/', METADATA],
      ['http://[64:ff9b:1::a9fe:a9fe]/', METADATA],
      ['http://[fd00:ec2::254]/', METADATA],
      ['http://[FD00:EC2:0:0:0:0:0:254]/', METADATA],
      ['http://169.254.170.2/v2/credentials', METADATA],
      ['http://100.100.100.200/latest/meta-data/', METADATA],
      ['http://metadata.google.internal/computeMetadata/v1/', METADATA],
      ['http://metadata.google.internal./', METADATA],
      ['http://METADATA.Google.Internal/', METADATA],
      ['http://metadata.google.internal../', METADATA],
      ['http://0.0.0.0/', UNSPECIFIED],
      ['http://0.0.0.0:8545/', UNSPECIFIED],
      ['http://0/', UNSPECIFIED],
      ['http://0x0/', UNSPECIFIED],
      ['http://0.0.0.0./', UNSPECIFIED],
      ['http://0.1.2.3/', UNSPECIFIED],
      ['http://[::]/', UNSPECIFIED],
      ['http://[0:0:0:0:0:0:0:0]/', UNSPECIFIED],
      ['http://[::ffff:0.0.0.0]/', UNSPECIFIED],
      ['http://[::ffff:0:0]/', UNSPECIFIED],
    ])('%j -> %j', (url, reason) => {
      expect(checkUrl(url, open)).toBe(reason);
      expect(checkUrl(url, strict)).toBe(reason);
      expect(
        checkUrl(url, {
          allowedHosts: ['169.254.169.254', '0.0.0.0', '::', 'metadata.google.internal'],
          blockPrivateIps: false,
        }),
      ).toBe(reason);
    });
  });

  describe('private addresses', () => {
    it.each<[string, string | null]>([
      ['http://127.0.0.1:8545', PRIVATE],
      ['http://127.1/', PRIVATE],
      ['http://2130706433/', PRIVATE],
      ['http://0x7f000001/', PRIVATE],
      ['http://0177.0.0.1/', PRIVATE],
      ['http://127.255.255.254/', PRIVATE],
      ['http://localhost', PRIVATE],
      ['http://localhost:8545/', PRIVATE],
      ['http://LOCALHOST/', PRIVATE],
      ['http://localhost./', PRIVATE],
      ['http://node.localhost/', PRIVATE],
      ['http://a.b.localhost./', PRIVATE],
      ['http://10.1.2.3', PRIVATE],
      ['http://10.255.255.255/', PRIVATE],
      ['http://172.16.0.1/', PRIVATE],
      ['http://172.31.255.255/', PRIVATE],
      ['http://192.168.1.1/', PRIVATE],
      ['http://169.254.1.1/', PRIVATE],
      ['http://100.64.0.1/', PRIVATE],
      ['http://100.127.255.255/', PRIVATE],
      ['http://[::1]', PRIVATE],
      ['http://[::1]:8545/', PRIVATE],
      ['http://[0:0:0:0:0:0:0:1]/', PRIVATE],
      ['http://[::ffff:127.0.0.1]', PRIVATE],
      ['http://[::ffff:7f00:1]/', PRIVATE],
      ['http://[::ffff:10.0.0.1]/', PRIVATE],
      ['http://[::ffff:192.168.0.1]/', PRIVATE],
      ['http://[::127.0.0.1]/', PRIVATE],
      ['http://[64:ff9b::10.0.0.1]/', PRIVATE],
      ['http://[fc00::1]/', PRIVATE],
      ['http://[fd12:3456::1]/', PRIVATE],
      ['http://[fe80::1]/', PRIVATE],
      ['http://[febf::1]/', PRIVATE],
      ['http://[fec0::1]/', PRIVATE],
      ['http://8.8.8.8/', null],
      ['http://172.15.255.255/', null],
      ['http://172.32.0.0/', null],
      ['http://100.63.255.255/', null],
      ['http://100.128.0.0/', null],
      ['http://11.0.0.1/', null],
      ['http://[2001:db8::1]/', null],
      ['http://[::ffff:8.8.8.8]/', null],
      ['http://[64:ff9b::8.8.8.8]/', null],
      ['http://[::2]/', null],
      ['http://localhost.example.com/', null],
      ['http://mylocalhost/', null],
      ['https://rpc.example.com/', null],
    ])('with blockPrivateIps %j -> %j', (url, reason) => {
      expect(checkUrl(url, strict)).toBe(reason);
    });

    it.each([
      'http://127.0.0.1:8545',
      'http://localhost',
      'http://10.1.2.3',
      'http://[::1]',
      'http://[::ffff:127.0.0.1]',
      'http://192.168.1.1/',
      'http://[fe80::1]/',
    ])('without blockPrivateIps %j is allowed', (url) => {
      expect(checkUrl(url, open)).toBeNull();
    });
  });

  describe('allowed hosts', () => {
    const allowedHosts = ['rpc.example.com', '*.infura.io', '8.8.8.8', '[2001:db8::1]', 'trailing.example.'];

    it.each<[string, string | null]>([
      ['https://rpc.example.com/v2/KEY', null],
      ['https://RPC.Example.COM./', null],
      ['https://user:pw@rpc.example.com:8443/', null],
      ['https://mainnet.infura.io/v3/KEY', null],
      ['https://a.b.infura.io/', null],
      ['https://infura.io/', NOT_ALLOWED],
      ['https://evilinfura.io/', NOT_ALLOWED],
      ['https://infura.io.evil.com/', NOT_ALLOWED],
      ['https://sub.rpc.example.com/', NOT_ALLOWED],
      ['https://example.com/', NOT_ALLOWED],
      ['https://rpc.example.com.evil.com/', NOT_ALLOWED],
      ['http://8.8.8.8/', null],
      ['http://134744072/', null],
      ['http://[::ffff:8.8.8.8]/', NOT_ALLOWED],
      ['http://[2001:db8::1]/', null],
      ['http://[2001:0db8:0:0:0:0:0:1]/', null],
      ['https://trailing.example/', null],
      ['https://other.example.org/', NOT_ALLOWED],
    ])('%j -> %j', (url, reason) => {
      expect(checkUrl(url, { allowedHosts, blockPrivateIps: false })).toBe(reason);
    });

    it.each<[string[], string, string | null]>([
      [['2001:db8::1'], 'http://[2001:db8::1]/', null],
      [['0x08080808'], 'http://8.8.8.8/', null],
      [['*.0.0.1'], 'http://1.0.0.1/', NOT_ALLOWED],
      [['rpc.example.com:8545'], 'http://rpc.example.com:8545/', NOT_ALLOWED],
      [['rpc.example.com/path'], 'http://rpc.example.com/', NOT_ALLOWED],
      [['user@rpc.example.com'], 'http://rpc.example.com/', NOT_ALLOWED],
      [['*'], 'http://rpc.example.com/', NOT_ALLOWED],
      [['  RPC.EXAMPLE.COM  '], 'http://rpc.example.com/', null],
      [['bücher.example'], 'http://xn--bcher-kva.example/', null],
      [['*.example.com'], 'http://bücher.example.com/', null],
    ])('entries %j, %j -> %j', (allowed, url, reason) => {
      expect(checkUrl(url, { allowedHosts: allowed, blockPrivateIps: false })).toBe(reason);
    });

    it('refuses private addresses even when they are allowed hosts', () => {
      expect(checkUrl('http://localhost:8545/', { allowedHosts: ['localhost'], blockPrivateIps: true })).toBe(
        PRIVATE,
      );
      expect(
        checkUrl('http://localhost:8545/', { allowedHosts: ['localhost'], blockPrivateIps: false }),
      ).toBeNull();
    });
  });
});

describe('checkAddress: the policy for the address a name resolved to', () => {
  const open = { allowedHosts: [], blockPrivateIps: false };
  const strict = { allowedHosts: [], blockPrivateIps: true };

  it.each<[string, typeof open, string | null]>([
    ['169.254.169.254', open, 'points to a cloud metadata address'],
    ['::ffff:169.254.169.254', open, 'points to a cloud metadata address'],
    ['fd00:ec2::254', open, 'points to a cloud metadata address'],
    ['0.0.0.0', open, 'points to an unspecified address'],
    ['::', open, 'points to an unspecified address'],
    ['127.0.0.1', open, null],
    ['127.0.0.1', strict, 'points to a private or loopback address'],
    ['::1', strict, 'points to a private or loopback address'],
    ['::ffff:10.0.0.1', strict, 'points to a private or loopback address'],
    ['10.1.2.3', strict, 'points to a private or loopback address'],
    ['93.184.216.34', strict, null],
    ['2606:2800:220:1:248:1893:25c8:1946', strict, null],
  ])('%s (block private: %j) -> %j', (address, options, expected) => {
    expect(checkAddress(address, options)).toBe(expected);
  });
});

describe('the private-address refusal names the variable that allows it (docs/reference/hardening.md)', () => {
  const named: UrlPolicyOptions = { ...strict, privateIpsVariable: 'WEBHOOK_BLOCK_PRIVATE_IPS' };
  const refusal = `${PRIVATE} (set WEBHOOK_BLOCK_PRIVATE_IPS=false to allow private addresses)`;

  it.each<[string, string | null]>([
    ['http://127.0.0.1:8080/', refusal],
    ['http://localhost/', refusal],
    ['http://[fd12::1]/', refusal],
    ['http://169.254.169.254/', METADATA],
    ['https://hooks.example.com/', null],
  ])('checkUrl(%s) -> %j', (url, expected) => {
    expect(checkUrl(url, named)).toBe(expected);
  });

  it('checkAddress names it too (a host name that resolves to a private address)', () => {
    expect(checkAddress('10.0.0.1', named)).toBe(refusal);
  });
});
