import { PreconditionFailedError } from '../errors/domain-errors';
import { IfMatch } from './if-match';
import { entityTag } from './tagged';

describe('entity tags', () => {
  const created = new Date('2026-01-02T03:04:05.678Z');

  it('are quoted strong tags that differ by version and by creation time', () => {
    const tag = entityTag(3, created);
    expect(tag).toMatch(/^"[\x21\x23-\x7e]+"$/);
    expect(new Set([tag, entityTag(4, created), entityTag(3, new Date(created.getTime() + 1))]).size).toBe(3);
  });
});

describe('If-Match (RFC 9110 13.1.1): * or a list of tags, compared strongly', () => {
  const current = entityTag(7, new Date('2026-01-02T03:04:05.678Z'));
  const other = entityTag(6, new Date('2026-01-02T03:04:05.678Z'));

  it.each([
    ['the current tag', current, true],
    ['*', '*', true],
    [' * ', ' * ', true],
    ['a list holding it', `${other}, ${current}`, true],
    ['a list without spaces', `${other},${current}`, true],
    ['a list with empty elements', ` , ${current},,`, true],
    ['a tag containing a comma', `"a,b", ${current}`, true],
    ['another tag', other, false],
    ['the current tag, weak', `W/${current}`, false],
    ['the current tag, unquoted', current.slice(1, -1), false],
    ['an empty value', '', false],
    ['* inside a list', `*, ${current}`, false],
    ['two tags without a comma', `${other} ${current}`, false],
    ['a tag with a space inside', `"a b", ${current}`, false],
  ])('%s: %s', (_, header, matches) => {
    expect(IfMatch.parse(header).matches(current)).toBe(matches);
  });

  it('assertMatches throws the 412 when the condition does not hold', () => {
    expect(() => IfMatch.parse(other).assertMatches(current)).toThrow(PreconditionFailedError);
    expect(() => IfMatch.parse(current).assertMatches(current)).not.toThrow();
  });
});
