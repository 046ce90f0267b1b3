/** What a URL (or a part of one) that must not be shown is replaced with. */
export const MASK = '***';

/**
 * The form of a stored URL that may leave the process (docs/reference/relayers.md#4-policies-and-rpc-urls): no credentials, the last
 * non-empty path segment and every query value replaced by `***`, no fragment. A trailing slash is kept
 * and does not protect the segment before it (`https://x.quiknode.pro/TOKEN/` hides TOKEN). A query
 * entry without `=` may itself be the token, so it is masked whole. Anything that is not a parseable
 * http(s) URL becomes `***`, so a raw value is never echoed.
 */
export function maskUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return MASK;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return MASK;
  return `${url.protocol}//${url.host}${maskPath(url.pathname)}${maskQuery(url.search)}`;
}

/** What a URL sent back in an update stands for, given the URLs stored before it. */
export type SentUrl =
  | { readonly kind: 'new' }
  | { readonly kind: 'kept'; readonly url: string }
  | { readonly kind: 'ambiguous' }
  | { readonly kind: 'unmatched' };

/**
 * A client sends back URLs as it read them: masked. A sent URL that is the masked form of stored
 * URLs keeps the one stored URL it stands for, wherever it appears in the list (docs/reference/relayers.md#4-policies-and-rpc-urls); when
 * it stands for two different stored URLs it is ambiguous. A URL holding the mask text that stands
 * for none is unmatched: it must never be stored, or the real URL would be lost for `***`.
 */
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
