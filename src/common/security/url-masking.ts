export const MASK = '***';

/** The form of a stored URL that may leave the process (docs/reference/relayers.md#4-policies-and-rpc-urls). */
export function maskUrl(raw: string): string {
  const url = URL.parse(raw);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) return MASK;
  return `${url.protocol}//${url.host}${maskPath(url.pathname)}${maskQuery(url.search)}`;
}

/**
 * A URL that carries credentials (`user:pass@host`) masked as an RPC URL is, with `***@` saying that
 * credentials were there; any other URL as it is (docs/reference/kms-signers.md).
 */
export function maskCredentials(raw: string): string {
  const url = URL.parse(raw);
  if (url === null || (url.username === '' && url.password === '')) return raw;
  const masked = maskUrl(raw);
  return masked === MASK ? MASK : masked.replace('//', `//${MASK}@`);
}

export type SentUrl =
  | { readonly kind: 'new' }
  | { readonly kind: 'kept'; readonly url: string }
  | { readonly kind: 'ambiguous' }
  | { readonly kind: 'unmatched' };

export function resolveSentUrl(sent: string, stored: readonly string[]): SentUrl {
  const matches = new Set(stored.filter((url) => maskUrl(url) === sent));
  if (matches.size === 1) return { kind: 'kept', url: [...matches][0] };
  if (matches.size > 1) return { kind: 'ambiguous' };
  return sent.includes(MASK) ? { kind: 'unmatched' } : { kind: 'new' };
}

function maskPath(pathname: string): string {
  const segments = pathname.split('/');
  const last = segments.findLastIndex((segment) => segment !== '');
  if (last > 0) segments[last] = MASK;
  return segments.join('/');
}

function maskQuery(search: string): string {
  if (search === '') return '';
  const entries = search
    .slice(1)
    .split('&')
    .map((entry) => {
      if (entry === '') return entry;
      const equals = entry.indexOf('=');
      return equals === -1 ? MASK : `${entry.slice(0, equals)}=${MASK}`;
    });
  return `?${entries.join('&')}`;
}

/** Parts shorter than this are not looked for in a text: `rpc` or `v2` would mask ordinary words. */
const MIN_SECRET_LENGTH = 4;

/**
 * `text` (a server's message) without the parts of `url` a text may echo
 * (docs/reference/relayer-health.md#13-verdicts): its user name and password, every path segment
 * and every query value (a query entry without `=` whole), each in every form it may be echoed in:
 * as written, as the URL parser writes it, percent-decoded, with `+` read as a space (a query value)
 * and percent-encoded again. Matched regardless of case, longest first, each replaced by `***`.
 */
export function withoutUrlSecrets(text: string, url: string): string {
  const parsed = URL.parse(url);
  if (parsed === null) return 'the message was withheld';
  const forms = new Set<string>();
  const add = (part: string, query = false) => {
    for (const raw of query ? [part, part.replaceAll('+', ' ')] : [part]) {
      const decoded = safeDecode(raw);
      for (const form of [raw, decoded, encodeURIComponent(decoded)]) forms.add(form);
    }
  };
  add(parsed.username);
  add(parsed.password);
  for (const segment of parsed.pathname.split('/')) add(segment);
  for (const entry of parsed.search.slice(1).split('&')) {
    const equals = entry.indexOf('=');
    add(equals === -1 ? entry : entry.slice(equals + 1), true);
  }
  // As written in the stored URL too, where the parser writes it otherwise (a space as %20).
  for (const written of writtenParts(url)) add(written, true);
  const secrets = [...forms]
    .filter((form) => form.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length)
    .map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return secrets.length === 0 ? text : text.replace(new RegExp(secrets.join('|'), 'gi'), MASK);
}

/** The user name, password, path segments and query values of a URL as its text has them, unparsed. */
function writtenParts(url: string): string[] {
  const [, authority = '', afterHost = ''] =
    /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)([^#]*)/i.exec(url.trim()) ?? [];
  const at = authority.lastIndexOf('@');
  const info = authority.slice(0, Math.max(at, 0));
  const colon = info.indexOf(':');
  const userinfo = colon === -1 ? [info] : [info.slice(0, colon), info.slice(colon + 1)];
  const queryAt = afterHost.indexOf('?');
  const path = queryAt === -1 ? afterHost : afterHost.slice(0, queryAt);
  const query = queryAt === -1 ? '' : afterHost.slice(queryAt + 1);
  const values = query.split('&').map((entry) => {
    const equals = entry.indexOf('=');
    return equals === -1 ? entry : entry.slice(equals + 1);
  });
  return [...userinfo, ...path.split('/'), ...values];
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
