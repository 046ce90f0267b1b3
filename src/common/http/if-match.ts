import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { PreconditionFailedError } from '../errors/domain-errors';

/** RFC 9110 13.1.1: `*` or strongly compared tags; a value that is neither matches nothing. */
export class IfMatch {
  private constructor(private readonly tags: ReadonlySet<string> | 'any') {}

  static parse(header: string): IfMatch {
    if (header.trim() === '*') return new IfMatch('any');
    // One list element (RFC 9110 5.6.1: empty elements allowed) and the comma or end after it.
    const element = /[\t ]*(?:(W\/)?("[\x21\x23-\x7e\x80-\xff]*"))?[\t ]*(,|$)/y;
    const tags = new Set<string>();
    while (element.lastIndex < header.length) {
      const match = element.exec(header);
      if (!match) return new IfMatch(new Set());
      if (match[2] !== undefined && match[1] === undefined) tags.add(match[2]);
      if (match[3] === '') break;
    }
    return new IfMatch(tags);
  }

  matches(etag: string): boolean {
    return this.tags === 'any' || this.tags.has(etag);
  }

  assertMatches(etag: string): void {
    if (!this.matches(etag)) throw new PreconditionFailedError();
  }
}

export const IfMatchHeader = createParamDecorator((_: unknown, context: ExecutionContext): IfMatch | null => {
  const header = context.switchToHttp().getRequest<Request>().headers['if-match'];
  return header === undefined ? null : IfMatch.parse(header);
});
