import type { ConfigFile } from './config-file-loader';
import { digestOf, fieldDigestsOf, planChanges, underEntry, type AppliedEntry } from './config-plan';

const APPLIED = {
  id: 'r1',
  name: 'Relayer one',
  network: 'sepolia',
  network_type: 'evm',
  signer_id: 's1',
  paused: false,
  policies: { min_balance: 5 },
};

/** The plan of a file holding one relayer entry, `applied` what config_entries holds of it. */
async function plan(entry: Record<string, unknown>, applied: AppliedEntry | undefined) {
  const file = { file: '/etc/relayer/config.json', relayers: [{ id: 'r1', body: entry }], notifications: [] };
  const { changes, recorded } = await planChanges(file as unknown as ConfigFile, {
    applied: new Map(applied ? [['relayer:r1', applied]] : []),
    find: () => Promise.resolve({ network: 'sepolia', network_type: 'evm', signer_id: 's1' }),
  });
  return { written: changes.map((change) => [change.action, change.written]), recorded: recorded.length };
}

const appliedWithFields = { digest: digestOf(APPLIED), fields: fieldDigestsOf(APPLIED) };
const appliedBeforeFields = { digest: digestOf(APPLIED), fields: null };

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

  it.each([
    ['an unchanged entry: nothing', APPLIED, appliedWithFields, { written: [], recorded: 0 }],
    [
      'a rename: the name only',
      { ...APPLIED, name: 'Renamed' },
      appliedWithFields,
      { written: [['update', ['name']]], recorded: 0 },
    ],
    [
      'a field the file no longer has, and one it adds',
      { ...APPLIED, policies: undefined, notification_id: 'n1' },
      appliedWithFields,
      { written: [['update', ['notification_id', 'policies']]], recorded: 0 },
    ],
    [
      'a row of before the field digests, entry changed: every field (the old behaviour)',
      { ...APPLIED, name: 'Renamed' },
      appliedBeforeFields,
      {
        written: [['update', ['name', 'paused', 'notification_id', 'custom_rpc_urls', 'policies']]],
        recorded: 0,
      },
    ],
    [
      'a row of before the field digests, entry unchanged: its digests recorded',
      APPLIED,
      appliedBeforeFields,
      { written: [], recorded: 1 },
    ],
    [
      'stored but never applied (made through the API): every field',
      APPLIED,
      undefined,
      {
        written: [['update', ['name', 'paused', 'notification_id', 'custom_rpc_urls', 'policies']]],
        recorded: 0,
      },
    ],
  ] as const)('plans %s', async (_case, entry, applied, expected) => {
    expect(await plan(entry, applied)).toEqual(expected);
  });
});
