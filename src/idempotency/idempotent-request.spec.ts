import { ValidationError } from '../common/errors/domain-errors';
import { readIdempotencyKey, requestDigest, withoutFields } from './idempotent-request';

const headersOf = (...values: string[]) => ({
  headers: { 'idempotency-key': values.join(', ') },
  rawHeaders: values.flatMap((value) => ['Idempotency-Key', value]),
});

describe('readIdempotencyKey', () => {
  it.each<[string, string]>([
    ['a', 'a'],
    ['x'.repeat(255), 'x'.repeat(255)],
    ['deploy 2024-05-01 #3 ~!@{}', 'deploy 2024-05-01 #3 ~!@{}'],
    ['CaseMatters', 'CaseMatters'],
  ])('accepts %j', (value, key) => {
    const { headers, rawHeaders } = headersOf(value);
    expect(readIdempotencyKey(headers, rawHeaders)).toBe(key);
  });

  it.each<[string, string[]]>([
    ['empty', ['']],
    ['256 characters', ['x'.repeat(256)]],
    ['a tab', ['a\tb']],
    ['non-ASCII', ['clé']],
    ['a control character', ['a\u0001b']],
    ['sent twice', ['a', 'b']],
  ])('refuses %s with a 400 naming the header', (_case, values) => {
    const { headers, rawHeaders } = headersOf(...values);
    expect(() => readIdempotencyKey(headers, rawHeaders)).toThrow(
      new ValidationError('Idempotency-Key must be one value of 1 to 255 printable ASCII characters'),
    );
  });

  it('is undefined without the header', () => {
    expect(readIdempotencyKey({}, ['Content-Type', 'application/json'])).toBeUndefined();
  });
});

describe('requestDigest', () => {
  const digest = (method: string, url: string, text: string) => requestDigest(method, url, Buffer.from(text));

  it('is the same for the same bytes, a hex SHA-256', () => {
    expect(digest('POST', '/api/v1/relayers', '{"a":1,"b":[1,2]}')).toBe(
      digest('POST', '/api/v1/relayers', '{"a":1,"b":[1,2]}'),
    );
    expect(digest('POST', '/api/v1/relayers', '{"a":1}')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('differs when the bytes, the path, the query or the method differ, the same JSON spelled differently included', () => {
    const base = digest('POST', '/api/v1/relayers', '{"a":1,"b":2}');
    expect(
      [
        digest('POST', '/api/v1/relayers', '{"b":2,"a":1}'),
        digest('POST', '/api/v1/relayers', '{ "a": 1, "b": 2 }'),
        digest('POST', '/api/v1/relayers', '{"a":1,"b":2}\n'),
        digest('POST', '/api/v1/relayers', '{"a":1,"b":3}'),
        digest('POST', '/api/v1/notifications', '{"a":1,"b":2}'),
        digest('POST', '/api/v1/relayers?dry_run=true', '{"a":1,"b":2}'),
        digest('PATCH', '/api/v1/relayers', '{"a":1,"b":2}'),
      ].filter((other) => other === base),
    ).toEqual([]);
  });

  it('treats no body as an empty object (POST routes without a body accept both)', () => {
    expect(requestDigest('POST', '/api/v1/relayers/r/check', Buffer.alloc(0))).toBe(
      digest('POST', '/api/v1/relayers/r/check', '{}'),
    );
  });
});

describe('withoutFields', () => {
  it.each<[unknown, string[], unknown]>([
    [{ id: 'k1', key: 'rk_secret', name: 'ci' }, ['key'], { id: 'k1', name: 'ci' }],
    [{ id: 'k1', key: 'rk_secret' }, [], { id: 'k1', key: 'rk_secret' }],
    ['Relayer deleted successfully', ['key'], 'Relayer deleted successfully'],
    [null, ['key'], null],
    [[{ key: 'x' }], ['key'], [{ key: 'x' }]],
  ])('%j without %j -> %j', (data, fields, expected) => {
    expect(withoutFields(data, fields)).toEqual(expected);
  });
});
