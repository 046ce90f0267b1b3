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

describe('config plan of an alert channel', () => {
  const CHANNEL = {
    id: 'c1',
    type: 'pagerduty',
    config: { routing_key: 'k'.repeat(32) },
    events: ['relayer_low_balance'],
  };
  const applied = { digest: digestOf(CHANNEL), fields: fieldDigestsOf(CHANNEL) };

  async function planOf(entry: Record<string, unknown>, stored: Record<string, unknown> | null) {
    const alertChannels = [{ id: 'c1', body: entry }];
    const file = { file: '/etc/relayer/config.json', relayers: [], notifications: [], alertChannels };
    return planChanges(file as unknown as ConfigFile, {
      applied: new Map([['alert_channel:c1', applied]]),
      find: (kind, id) => Promise.resolve(kind === 'alert_channel' && id === 'c1' ? stored : null),
    });
  }

  it.each([
    ['not stored: a create', CHANNEL, null, [['create', 'alert_channels[0]', []]]],
    ['unchanged: nothing', CHANNEL, { type: 'pagerduty' }, []],
    [
      'a new routing key: the config only',
      { ...CHANNEL, config: { routing_key: 'n'.repeat(32) } },
      { type: 'pagerduty' },
      [['update', 'alert_channels[0]', ['config']]],
    ],
    [
      'events removed, relayer_ids added',
      { ...CHANNEL, events: undefined, relayer_ids: ['r1'] },
      { type: 'pagerduty' },
      [['update', 'alert_channels[0]', ['events', 'relayer_ids']]],
    ],
  ] as const)('plans %s', async (_case, entry, stored, expected) => {
    const { changes } = await planOf(entry, stored);
    expect(changes.map(({ action, at, written }) => [action, at, written])).toEqual(expected);
  });

  it('refuses a change of type, naming the entry and what to do', async () => {
    await expect(planOf({ ...CHANNEL, type: 'slack' }, { type: 'pagerduty' })).rejects.toThrow(
      new Error(
        `CONFIG_FILE /etc/relayer/config.json: alert_channels[0] (alert channel 'c1'): type cannot change (stored "pagerduty"); delete the alert channel through the API first`,
      ),
    );
  });

  it('names a channel the file no longer has, and none from a loader without the section', async () => {
    const file = { file: '/etc/relayer/config.json', relayers: [], notifications: [] };
    const { changes, removed } = await planChanges(file as unknown as ConfigFile, {
      applied: new Map([['alert_channel:c1', applied]]),
      find: () => Promise.resolve(null),
    });
    expect({ changes, removed }).toEqual({ changes: [], removed: ["alert_channel 'c1'"] });
  });
});
