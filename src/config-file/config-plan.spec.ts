import { digestOf, underEntry } from './config-plan';

describe('config plan helpers', () => {
  it('digests an entry independently of its key order, and tells any change apart', () => {
    expect(digestOf({ a: 1, b: { c: [1, 2], d: null } })).toBe(digestOf({ b: { d: null, c: [1, 2] }, a: 1 }));
    expect(digestOf({ a: 1, b: { c: [2, 1] } })).not.toBe(digestOf({ a: 1, b: { c: [1, 2] } }));
    expect(digestOf({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });

  it('names an API problem under the entry path', () => {
    expect(underEntry('relayers[2]', 'name must be 1 to 255 characters')).toBe(
      'relayers[2].name must be 1 to 255 characters',
    );
    expect(underEntry('relayers[2]', "Network 'x' not found")).toBe("relayers[2]: Network 'x' not found");
  });
});
