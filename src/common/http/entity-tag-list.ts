/** One element of a list of entity tags (RFC 9110 8.8.3): the opaque tag, quotes included, and its `W/`. */
export interface ListedTag {
  readonly weak: boolean;
  readonly opaque: string;
}

/**
 * The value of `If-Match` or `If-None-Match` (RFC 9110 13.1.1, 13.1.2): `'*'`, the tags of a
 * `#entity-tag` list (RFC 9110 5.6.1: empty elements allowed), or null for a value that is neither.
 */
export function parseEntityTags(header: string): '*' | ListedTag[] | null {
  if (header.trim() === '*') return '*';
  // One list element and the comma or end after it.
  const element = /[\t ]*(?:(W\/)?("[\x21\x23-\x7e\x80-\xff]*"))?[\t ]*(,|$)/y;
  const tags: ListedTag[] = [];
  while (element.lastIndex < header.length) {
    const match = element.exec(header);
    if (!match) return null;
    if (match[2] !== undefined) tags.push({ weak: match[1] !== undefined, opaque: match[2] });
    if (match[3] === '') break;
  }
  return tags;
}

/** RFC 9110 8.8.3.2: two tags compared weakly are equal when their opaque tags are, `W/` or not. */
export const opaqueTag = (etag: string): string => (etag.startsWith('W/') ? etag.slice(2) : etag);
