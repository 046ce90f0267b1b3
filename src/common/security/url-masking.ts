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
