import { escapeMrkdwn } from './slack-message';
import { clip, oneLine } from './text-limits';

describe('oneLine', () => {
  it.each([
    ['payments-1', 'payments-1'],
    ['  two\r\nlines\tand\u0000a NUL  ', 'two lines and a NUL'],
    ['line\u2028separator\u2029paragraph\u0085next', 'line separator paragraph next'],
    ['\n\n', ''],
  ])('writes %j as %j', (text, line) => {
    expect(oneLine(text)).toBe(line);
  });
});

describe('clip', () => {
  it.each([
    ['abc', 3, 'abc'],
    ['abcd', 3, 'ab…'],
    ['', 0, ''],
    ['abcdef', 1, '…'],
  ])('clips %j to %i code units as %j', (text, max, clipped) => {
    expect(clip(text, max)).toBe(clipped);
  });

  it('never keeps half of a character written with two code units', () => {
    // '🔑' is two UTF-16 code units: 'ab' and the ellipsis fill 3, the key would take 5.
    expect(clip('ab🔑cd', 4)).toBe('ab…');
    expect(clip('ab🔑cd', 5)).toBe('ab🔑…');
  });

  it('counts the escaped text, and never cuts an entity', () => {
    expect(clip('a&b', 7, escapeMrkdwn)).toBe('a&amp;b');
    // 'a&amp;' and the ellipsis would be 7: only 'a' fits in 6.
    expect(clip('a&bc', 6, escapeMrkdwn)).toBe('a…');
    expect(clip('a&bc', 7, escapeMrkdwn)).toBe('a&amp;…');
  });
});
