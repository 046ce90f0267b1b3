import { jsonShape, parseJson, stringifyJson } from './json';

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

describe('jsonShape', () => {
  const shapeOf = (text: string) => jsonShape(Buffer.from(text));

  it.each([
    ['1', 0],
    ['{}', 1],
    ['{"a":[{"b":[]}]}', 4],
    ['{"a":"[[[[{{{{"}', 1],
    ['{"a":"\\"[[["}', 1],
    [`${'['.repeat(100)}${']'.repeat(100)}`, 100],
  ])('%s: depth %i', (text, depth) => {
    expect(shapeOf(text).depth).toBe(depth);
  });

  it.each([
    ['{}', { depth: 1, keys: 0, widest: 0, elements: 0, containers: 1, separators: 0 }],
    ['[ ]', { depth: 1, keys: 0, widest: 0, elements: 0, containers: 1, separators: 0 }],
    [
      '[[],[[ 1 ]], {"a":[]}, "x,y"]',
      { depth: 3, keys: 1, widest: 1, elements: 6, containers: 6, separators: 3 },
    ],
    [
      '{"a":1,"b":{"c":[1,2,{"d":null}]}}',
      { depth: 4, keys: 4, widest: 2, elements: 3, containers: 4, separators: 3 },
    ],
    [
      '[{"a":1},{"b":1,"c":1},{"d":{"e":1,"f":1,"g":1}}]',
      { depth: 3, keys: 7, widest: 3, elements: 3, containers: 5, separators: 5 },
    ],
    ['{"a:b,{[":"x:y,[{"}', { depth: 1, keys: 1, widest: 1, elements: 0, containers: 1, separators: 0 }],
    ['{"\\\\":1,"\\\\\\"":2}', { depth: 1, keys: 2, widest: 2, elements: 0, containers: 1, separators: 1 }],
    ['{"é":"日本:,","ü":[]}', { depth: 2, keys: 2, widest: 2, elements: 0, containers: 2, separators: 1 }],
  ])(
    '%s: keys at all levels, the widest object, array elements, containers and separators outside strings',
    (text, shape) => {
      expect(shapeOf(text)).toEqual(shape);
    },
  );
});
