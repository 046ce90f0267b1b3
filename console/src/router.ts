import { signal } from '@preact/signals';

/** Where the console is: the part of the URL after `#`, e.g. `#/relayers/r-1?tab=audit`. */
export interface Location {
  /** The path's segments: `['relayers', 'r-1']`. */
  segments: string[];
  query: URLSearchParams;
}

function parse(hash: string): Location {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?', 2);
  return {
    segments: path.split('/').filter(Boolean).map(decodeURIComponent),
    query: new URLSearchParams(search),
  };
}

export const location = signal<Location>(parse(window.location.hash));
window.addEventListener('hashchange', () => {
  location.value = parse(window.location.hash);
});

/** The href of a console page, its segments encoded, with the query's non-empty values. */
export function href(
  segments: readonly string[],
  query: Record<string, string | number | undefined> = {},
): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  const path = segments.map(encodeURIComponent).join('/');
  const text = search.toString();
  return `#/${path}${text ? `?${text}` : ''}`;
}

export function navigate(
  segments: readonly string[],
  query: Record<string, string | number | undefined> = {},
): void {
  window.location.hash = href(segments, query);
}
