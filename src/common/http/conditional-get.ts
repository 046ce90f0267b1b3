import { createHash } from 'node:crypto';
import type { Express, Request, Response } from 'express';
import { IfNoneMatch } from './if-none-match';

/**
 * The cache policy of a GET answer that carries an ETag (docs/reference/safe-writes.md#14-conditional-gets):
 * kept by the client alone (the answer depends on the key), and checked with the service before each
 * use, with `If-None-Match`.
 */
export const TAGGED_CACHE_POLICY = 'private, no-cache';

/**
 * A list's tag (docs/reference/pagination.md#16-etag-and-304): a digest of the very bytes sent, so
 * that it changes with anything the answer shows, the key's scope included.
 */
export const bodyTag = (body: string): string => `"${createHash('sha256').update(body).digest('base64url')}"`;

/** Sends `etag` with the answer and, on a GET, the cache policy, unless the route set its own. */
export function tagAnswer(request: Request, response: Response, etag: string): void {
  response.setHeader('ETag', etag);
  if (isRead(request) && !response.hasHeader('Cache-Control')) {
    response.setHeader('Cache-Control', TAGGED_CACHE_POLICY);
  }
}

const isRead = (request: Request): boolean => request.method === 'GET' || request.method === 'HEAD';

/**
 * Whether the answer about to be sent is one the client holds already: a GET (or HEAD) answered
 * 2xx with an ETag that its `If-None-Match` matches (RFC 9110 13.1.2, 13.2.2). An answer without an
 * ETag is never one, whatever the header says.
 */
export function notModified(request: Request, response: Response): boolean {
  const header = request.headers['if-none-match'];
  const etag = response.getHeader('ETag');
  if (header === undefined || typeof etag !== 'string' || !isRead(request)) return false;
  const status = response.statusCode;
  return status >= 200 && status < 300 && IfNoneMatch.parse(header).matches(etag);
}

/**
 * Express turns an answer into a 304 without a body (`res.send`) when `req.fresh`: that test becomes
 * `notModified`, the one place the service decides a 304, for every route. Express's own reads
 * `If-None-Match` loosely, answers `*` without an ETag and ignores it on `Cache-Control: no-cache`.
 */
export function answerNotModified(express: Express): void {
  Object.defineProperty(express.request, 'fresh', {
    configurable: true,
    enumerable: true,
    get(this: Request): boolean {
      return notModified(this, this.res as Response);
    },
  });
}
