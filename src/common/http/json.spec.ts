import { nestingDepth, parseJson, stringifyJson } from './json';

describe('parseJson / stringifyJson: integers keep every digit', () => {
  it.each([
    ['123456789012345678901', 123456789012345678901n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775809', -9223372036854775809n],
    ['9007199254740993', 9007199254740993n],
  ])('%s parses to a bigint and is written back unchanged', (text, value) => {
    expect(parseJson(`{"v":${text}}`)).toEqual({ v: value });
    expect(stringifyJson({ v: value })).toBe(`{"v":${text}}`);
  });

  it.each([
    ['9007199254740991', 9007199254740991],
    ['1.5', 1.5],
    ['1e3', 1000],
    ['-0', -0],
    ['1e400', Infinity],
  ])('%s stays a number', (text, value) => {
    expect(parseJson(`[${text}]`)).toEqual([value]);
  });

  it('an unsafe integer written with an exponent is not exact, so it stays a number', () => {
    expect(parseJson('[1e23]')).toEqual([1e23]);
  });

  it('throws SyntaxError like JSON.parse', () => {
    expect(() => parseJson('{"a":}')).toThrow(SyntaxError);
  });
});

describe('nestingDepth', () => {
  it.each([
    ['1', 0],
    ['{}', 1],
    ['{"a":[{"b":[]}]}', 4],
    ['{"a":"[[[[{{{{"}', 1],
    ['{"a":"\\"[[["}', 1],
    [`${'['.repeat(100)}${']'.repeat(100)}`, 100],
  ])('%s → %i', (text, depth) => {
    expect(nestingDepth(text)).toBe(depth);
  });
});
