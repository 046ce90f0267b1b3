import { format, inspect } from 'node:util';

import { Secret, timingSafeEqualStrings } from './secret';

describe('Secret', () => {
  const secret = new Secret('0xdeadbeef');

  it('reveals the value only through reveal()', () => {
    expect(secret.reveal()).toBe('0xdeadbeef');
  });

  it.each<[string, () => string]>([
    ['JSON.stringify', () => JSON.stringify({ key: secret })],
    ['String()', () => String(secret)],
    // eslint-disable-next-line @typescript-eslint/restrict-template-expressions -- the careless use under test
    ['template literal', () => `key: ${secret}`],
    ['util.inspect', () => inspect(secret)],
    ['util.inspect nested', () => inspect({ config: { key: secret } }, { depth: 5 })],
    ['util.format %s', () => format('%s', secret)],
    ['util.format %o', () => format('%o', secret)],
    ['util.format %j', () => format('%j', secret)],
  ])('%s hides the value', (_how, render) => {
    const text = render();
    expect(text).not.toContain('deadbeef');
    expect(text).toContain('[redacted]');
  });

  it.each<[string, () => string]>([
    ['JSON.stringify', () => JSON.stringify({ key: secret })],
    ['String()', () => String(secret)],
    ['util.inspect', () => inspect(secret)],
    ['util.inspect nested', () => inspect({ key: secret })],
  ])('%s renders exactly', (how, render) => {
    const expected: Record<string, string> = {
      'JSON.stringify': '{"key":"[redacted]"}',
      'String()': '[redacted]',
      'util.inspect': '[redacted]',
      'util.inspect nested': '{ key: [redacted] }',
    };
    expect(render()).toBe(expected[how]);
  });

  it('has no enumerable own properties', () => {
    expect(Object.keys(secret)).toEqual([]);
    expect(Object.getOwnPropertyNames(secret)).toEqual([]);
  });

  it('wraps non-string values', () => {
    const buffer = Buffer.from([1, 2, 3]);
    const wrapped = new Secret(buffer);
    expect(wrapped.reveal()).toBe(buffer);
    expect(JSON.stringify(wrapped)).toBe('"[redacted]"');
  });
});

describe('timingSafeEqualStrings', () => {
  it.each<[string, string, boolean]>([
    ['', '', true],
    ['token', 'token', true],
    ['a'.repeat(64), 'a'.repeat(64), true],
    ['ünïcødé', 'ünïcødé', true],
    ['token', 'tokeN', false],
    ['token', 'token ', false],
    ['token', 'tok', false],
    ['', 'x', false],
    ['short', 'a much longer string than the other one', false],
    ['a'.repeat(64), 'a'.repeat(65), false],
  ])('%j vs %j -> %j', (a, b, expected) => {
    expect(timingSafeEqualStrings(a, b)).toBe(expected);
    expect(timingSafeEqualStrings(b, a)).toBe(expected);
  });
});
