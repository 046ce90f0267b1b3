import type { Request, Response } from 'express';
import { bodyTag, notModified } from './conditional-get';
import { IfNoneMatch } from './if-none-match';

describe('If-None-Match (RFC 9110 13.1.2): * or a list of tags, compared weakly', () => {
  const current = bodyTag('{"success":true,"data":[],"error":null}');
  const other = bodyTag('{"success":true,"data":[1],"error":null}');

  it.each([
    ['the current tag', current, true],
    ['the current tag, weak', `W/${current}`, true],
    ['*', '*', true],
    [' * ', ' * ', true],
    ['a list holding it', `${other}, ${current}`, true],
    ['a list holding it weak, without spaces', `${other},W/${current}`, true],
    ['a list with empty elements', ` , ${current},,`, true],
    ['a tag containing a comma', `"a,b", ${current}`, true],
    ['another tag', other, false],
    ['the current tag, unquoted', current.slice(1, -1), false],
    ['an empty value', '', false],
    ['* inside a list', `*, ${current}`, false],
    ['two tags without a comma', `${other} ${current}`, false],
    ['a malformed list holding it', `garbage, ${current}`, false],
    ['a tag with a space inside', `"a b", ${current}`, false],
  ])('%s: %s', (_, header, matches) => {
    expect(IfNoneMatch.parse(header).matches(current)).toBe(matches);
  });

  it('compares a weak tag of the answer weakly too', () => {
    expect(IfNoneMatch.parse('"x"').matches('W/"x"')).toBe(true);
  });
});

describe('notModified: the one decision of a 304', () => {
  const etag = '"abc"';
  const answer = (method: string, header: string | undefined, status: number, tag: string | undefined) =>
    notModified(
      { method, headers: header === undefined ? {} : { 'if-none-match': header } } as Request,
      { statusCode: status, getHeader: (name: string) => (name === 'ETag' ? tag : undefined) } as Response,
    );

  it.each([
    ['a GET whose If-None-Match matches its 200', 'GET', etag, 200, etag, true],
    ['a HEAD alike', 'HEAD', etag, 200, etag, true],
    ['*', 'GET', '*', 200, etag, true],
    ['no If-None-Match', 'GET', undefined, 200, etag, false],
    ['another tag', 'GET', '"abd"', 200, etag, false],
    ['an answer without an ETag, even for *', 'GET', '*', 200, undefined, false],
    ['an error answer', 'GET', etag, 404, etag, false],
    ['a write', 'POST', etag, 201, etag, false],
  ] as const)('%s', (_, method, header, status, tag, expected) => {
    expect(answer(method, header, status, tag)).toBe(expected);
  });
});
