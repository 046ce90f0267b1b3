import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { PreconditionFailedError } from '../errors/domain-errors';
import { parseEntityTags } from './entity-tag-list';

/** RFC 9110 13.1.1: `*` or strongly compared tags; a value that is neither matches nothing. */
export class IfMatch {
  private constructor(private readonly tags: ReadonlySet<string> | 'any') {}

  static parse(header: string): IfMatch {
    const tags = parseEntityTags(header);
    if (tags === '*') return new IfMatch('any');
    return new IfMatch(new Set((tags ?? []).filter((tag) => !tag.weak).map((tag) => tag.opaque)));
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
