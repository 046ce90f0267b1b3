import { opaqueTag, parseEntityTags } from './entity-tag-list';

/**
 * RFC 9110 13.1.2: `*`, or tags compared weakly (`W/"x"` matches `"x"`). A value that is neither
 * matches nothing: the request is answered as if it had sent no `If-None-Match`.
 */
export class IfNoneMatch {
  private constructor(private readonly tags: ReadonlySet<string> | 'any') {}

  static parse(header: string): IfNoneMatch {
    const tags = parseEntityTags(header);
    if (tags === '*') return new IfNoneMatch('any');
    return new IfNoneMatch(new Set((tags ?? []).map((tag) => tag.opaque)));
  }

  /** Whether the answer tagged `etag` is one the client holds already. */
  matches(etag: string): boolean {
    return this.tags === 'any' || this.tags.has(opaqueTag(etag));
  }
}
