import { RelayerScope } from './relayer-scope';

const scope = (...entries: string[]) => RelayerScope.of(entries);

describe('RelayerScope (docs/reference/keys-and-audit.md#3-relayer-scope)', () => {
  it('covers its ids exactly and its prefixes byte for byte', () => {
    const s = scope('team-a-*', 'shared-1', 'ops_x*');
    expect(
      [
        'team-a-1',
        'team-a-',
        'shared-1',
        'ops_x-2',
        'team-b-1',
        'shared-10',
        'TEAM-A-1',
        'opsAx-1',
        'team-a',
      ].map((id) => s?.covers(id)),
    ).toEqual([true, true, true, true, false, false, false, false, false]);
  });

  it.each([
    [null, null, true],
    [null, ['a-*'], true],
    [['a-*'], null, false],
    [['a-*'], ['a-*'], true],
    [['a-*'], ['a-b-*', 'a-1'], true],
    [['a-*'], ['a*'], false],
    [['a-1'], ['a-1*'], false],
    [['a-1'], ['a-1'], true],
    [['a-1', 'b-*'], ['b-2', 'a-1', 'b-c*'], true],
    [['a-1', 'b-*'], ['b-2', 'a-2'], false],
    [['A-*'], ['a-1'], false],
  ])('contains(%j, %j) is %p', (outer, inner, expected) => {
    expect(RelayerScope.contains(RelayerScope.of(outer), RelayerScope.of(inner))).toBe(expected);
  });

  it('is a condition with one placeholder per value, ids first, prefixes by their leading characters', () => {
    const s = scope('team-a-*', 'shared-1', 'x_*', 'shared-2');
    expect(s?.condition('id', (e) => `B(${e})`)).toEqual({
      sql: '(id IS NOT NULL AND (B(id) IN (?, ?) OR B(SUBSTR(id, 1, 7)) = ? OR B(SUBSTR(id, 1, 2)) = ?))',
      parameters: ['shared-1', 'shared-2', 'team-a-', 'x_'],
    });
    expect(
      scope('p-*')?.condition(
        'c',
        (e) => e,
        (i) => `:s${i}`,
      ),
    ).toEqual({
      sql: '(c IS NOT NULL AND (SUBSTR(c, 1, 2) = :s0))',
      parameters: ['p-'],
    });
  });
});
