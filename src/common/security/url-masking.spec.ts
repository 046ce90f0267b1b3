import { maskUrl, resolveSentUrl, withoutUrlSecrets } from './url-masking';

describe('maskUrl', () => {
  it.each<[string, string]>([
    ['https://user:pw@rpc.example.com/v2/SECRETKEY?apikey=abc', 'https://rpc.example.com/v2/***?apikey=***'],
    ['https://mainnet.infura.io/v3/0123456789abcdef', 'https://mainnet.infura.io/v3/***'],
    ['https://user:pw@rpc.example.com', 'https://rpc.example.com/'],
    ['https://user@rpc.example.com/', 'https://rpc.example.com/'],
    ['https://:pw@rpc.example.com/', 'https://rpc.example.com/'],
    ['https://rpc.example.com', 'https://rpc.example.com/'],
    ['https://rpc.example.com/', 'https://rpc.example.com/'],
    ['https://rpc.example.com/rpc', 'https://rpc.example.com/***'],
    ['https://x.quiknode.pro/TOKEN/', 'https://x.quiknode.pro/***/'],
    ['https://rpc.example.com/a/b//', 'https://rpc.example.com/a/***//'],
    ['http://rpc.example.com:8545/', 'http://rpc.example.com:8545/'],
    ['https://rpc.example.com:443/key', 'https://rpc.example.com/***'],
    ['http://[::1]:8545/key', 'http://[::1]:8545/***'],
    ['HTTPS://RPC.Example.COM/Key', 'https://rpc.example.com/***'],
    ['https://rpc.example.com/v2/KEY#fragment', 'https://rpc.example.com/v2/***'],
    ['https://rpc.example.com/v2/KEY?', 'https://rpc.example.com/v2/***'],
    ['https://rpc.example.com/?a=1&b=2&c=3', 'https://rpc.example.com/?a=***&b=***&c=***'],
    ['https://rpc.example.com/?a=1&a=2', 'https://rpc.example.com/?a=***&a=***'],
    ['https://rpc.example.com/?key=&x=y=z', 'https://rpc.example.com/?key=***&x=***'],
    ['https://rpc.example.com/?SECRETTOKEN', 'https://rpc.example.com/?***'],
    ['https://rpc.example.com/?a=1&&b=2', 'https://rpc.example.com/?a=***&&b=***'],
    [
      'https://rpc.example.com/p%20a%2Fth/s%2Fe%20cret?api%20key=a%26b',
      'https://rpc.example.com/p%20a%2Fth/***?api%20key=***',
    ],
    ['https://rpc.example.com/päth/sécret?kéy=välue', 'https://rpc.example.com/p%C3%A4th/***?k%C3%A9y=***'],
    ['https://bücher.example/key', 'https://xn--bcher-kva.example/***'],
    ['not a url', '***'],
    ['', '***'],
    ['https://user:SECRET@', '***'],
    ['javascript:alert(1)', '***'],
    ['ftp://user:pw@files.example.com/secret', '***'],
  ])('%j -> %j', (url, masked) => {
    expect(maskUrl(url)).toBe(masked);
  });

  it('is idempotent', () => {
    const once = maskUrl('https://u:p@rpc.example.com/v2/KEY?apikey=abc&x');
    expect(maskUrl(once)).toBe(once);
  });
});

describe('resolveSentUrl', () => {
  const a = 'https://user:pw@rpc.example.com/v2/SECRETKEY?apikey=abc';
  const b = 'https://other.example.com/v1/OTHERKEY';

  it.each<[string, readonly string[], ReturnType<typeof resolveSentUrl>]>([
    ['https://rpc.example.com/v2/***?apikey=***', [a, b], { kind: 'kept', url: a }],
    ['https://other.example.com/v1/***', [a, b], { kind: 'kept', url: b }],
    ['https://other.example.com/v1/***', [b, a, b], { kind: 'kept', url: b }],
    [a, [a], { kind: 'new' }],
    ['https://rpc.example.com/v2/NEWKEY?apikey=abc', [a], { kind: 'new' }],
    ['https://rpc.example.com/v2/***', [a], { kind: 'unmatched' }],
    ['https://rpc.example.com/v2/***?apikey=***#x', [a], { kind: 'unmatched' }],
    ['https://rpc.example.com/v3/***?apikey=***', [a], { kind: 'unmatched' }],
    ['https://rpc.example.com/v2/***?apikey=***', [], { kind: 'unmatched' }],
    [
      'https://rpc.example.com/v2/***?apikey=***',
      [a, 'https://rpc.example.com/v2/OTHER?apikey=xyz'],
      { kind: 'ambiguous' },
    ],
    [
      'https://rpc.example.com/',
      ['https://rpc.example.com/'],
      { kind: 'kept', url: 'https://rpc.example.com/' },
    ],
    [
      'https://rpc.example.com/',
      ['https://rpc.example.com'],
      { kind: 'kept', url: 'https://rpc.example.com' },
    ],
  ])('%j among %j -> %j', (sent, stored, expected) => {
    expect(resolveSentUrl(sent, stored)).toEqual(expected);
  });
});

describe('withoutUrlSecrets', () => {
  it.each<[string, string, string]>([
    // A query value with `+`: as written, and as read with `+` a space.
    [
      'http://127.0.0.1:8545/echoraw/rpc?apikey=Zm9v+YmFyc2VjcmV0',
      'unauthorized request /echoraw/rpc?apikey=Zm9v+YmFyc2VjcmV0 (Zm9v YmFyc2VjcmV0)',
      'unauthorized request /***/rpc?apikey=*** (***)',
    ],
    // Percent-escapes: as written, decoded, and in either case of their hex digits.
    [
      'http://127.0.0.1:8545/echoraw/rpc?apikey=Zm9v%2BYmFy%2Fc2VjcmV0',
      'a /echoraw/rpc?apikey=Zm9v%2BYmFy%2Fc2VjcmV0 b Zm9v+YmFy/c2VjcmV0 c zm9v%2bymfy%2fc2vjcmv0',
      'a /***/rpc?apikey=*** b *** c ***',
    ],
    // Re-encoded: a decoded value the server encodes again as encodeURIComponent does.
    ['https://rpc.example.com/v2/?key=a%20b%3Dc!d', 'key a%20b%3Dc!d or a b=c!d', 'key *** or ***'],
    [
      'https://rpc.example.com/v2/?key=a b=c',
      'got a%20b=c and a b=c and a%20b%3Dc',
      'got *** and *** and ***',
    ],
    // A query entry without `=` is secret whole, as maskUrl masks it.
    ['https://rpc.example.com/?SECRETTOKEN', 'bad token SECRETTOKEN', 'bad token ***'],
    // User name and password, written escaped or not.
    ['https://rpcuser:p%40ss%3Aw0rd@rpc.example.com/', 'denied rpcuser:p@ss:w0rd', 'denied ***:***'],
    ['https://rpcuser:p%40ss%3Aw0rd@rpc.example.com/', 'denied rpcuser:p%40ss%3Aw0rd', 'denied ***:***'],
    // Every path segment, in any case; parts under 4 characters are left (they would mask words).
    ['https://rpc.example.com/v3/ABCDEF0123', 'key abcdef0123 on v3', 'key *** on v3'],
    // A value the parser writes otherwise (a space as %20) is found as written too.
    ['https://rpc.example.com/a key/x', 'path /a key/ or /a%20key/', 'path /***/ or /***/'],
    // Longest first: a part inside another leaves no piece of the longer one.
    ['https://rpc.example.com/abcd?k=abcdefgh', 'abcdefgh', '***'],
    // Regular-expression characters in a part are matched as themselves.
    ['https://rpc.example.com/?k=a.b*c(d)', 'a.b*c(d) axbbbcd', '*** axbbbcd'],
    ['https://rpc.example.com/', 'nothing secret', 'nothing secret'],
    ['not a url', 'anything at all', 'the message was withheld'],
  ])('%j: %j -> %j', (url, text, expected) => {
    expect(withoutUrlSecrets(text, url)).toBe(expected);
  });
});
