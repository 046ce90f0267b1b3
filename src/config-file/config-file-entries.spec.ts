import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CatalogueConfigError, loadConfigFile, type ConfigFile } from './config-file-loader';

type Json = Record<string, unknown>;
const KEY = `0x${'00'.repeat(31)}01`;
const SIGNERS = [{ id: 's1', type: 'plain', config: { key: { type: 'plain', value: KEY } } }];
const evm = (network: string, fields: Json = {}): Json => ({ type: 'evm', network, chain_id: 5, ...fields });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'config-file-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function load(
  config: Json,
  env: Json = {},
  strict = false,
  onNotice?: (m: string) => void,
): Promise<ConfigFile> {
  const file = path.join(dir, 'config.json');
  await writeFile(file, JSON.stringify({ signers: SIGNERS, ...config }));
  return loadConfigFile({
    configFile: file,
    dataDir: dir,
    production: false,
    env: env as Record<string, string>,
    strict,
    onNotice,
  });
}

async function problem(config: Json, env: Json = {}, strict = false): Promise<string> {
  const error = await load(config, env, strict).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(CatalogueConfigError);
  return (error as Error).message.replace(`CONFIG_FILE ${path.join(dir, 'config.json')}: `, '');
}

describe('networks: from inheritance', () => {
  it('takes every unset field from the parent chain and joins features and tags, the parent first, once each', async () => {
    const { catalogue } = await load({
      networks: [
        evm('grand', {
          rpc_urls: ['https://a.example/'],
          symbol: 'G',
          features: ['x'],
          tags: ['t1'],
          is_testnet: true,
        }),
        evm('parent', { from: 'grand', rpc_urls: ['https://b.example/'], features: ['y', 'x'] }),
        evm('child', { from: 'parent', chain_id: 7, tags: ['t2'] }),
      ],
    });
    expect(catalogue.findNetwork('evm', 'child')).toEqual({
      type: 'evm',
      network: 'child',
      chain_id: 7,
      rpc_urls: [{ url: 'https://b.example/', weight: 100 }],
      is_testnet: true,
      symbol: 'G',
      features: ['x', 'y'],
      tags: ['t1', 't2'],
    });
  });

  it('refuses a network that names itself', async () => {
    expect(
      await problem({ networks: [evm('self', { from: 'self', rpc_urls: ['https://a.example/'] })] }),
    ).toBe("network 'self' (evm): from 'self' makes a cycle (self -> self)");
  });
});

describe('relayers and notifications', () => {
  const networks = [evm('n1', { rpc_urls: ['https://a.example/'] })];

  it('reads a plain string, a plain secret and an env secret as the signing key, and string RPC URLs as weight 100', async () => {
    const file = await load(
      {
        networks,
        notifications: [
          { id: 'a', type: 'webhook', url: 'https://h.example/a', signing_key: 'k'.repeat(32) },
          {
            id: 'b',
            type: 'webhook',
            url: 'https://h.example/b',
            signing_key: { type: 'plain', value: 'p'.repeat(32) },
          },
          {
            id: 'c',
            type: 'webhook',
            url: 'https://h.example/c',
            signing_key: { type: 'env', value: 'HOOK_KEY' },
          },
          { id: 'd', type: 'webhook', url: 'https://h.example/d' },
        ],
        relayers: [
          { id: 'r1', custom_rpc_urls: ['https://r.example/', { url: 'https://q.example/', weight: 5 }] },
        ],
      },
      { HOOK_KEY: 'e'.repeat(32) },
    );
    expect(file.notifications.map((n) => n.body.signing_key)).toEqual([
      'k'.repeat(32),
      'p'.repeat(32),
      'e'.repeat(32),
      undefined,
    ]);
    expect(file.relayers).toEqual([
      {
        id: 'r1',
        body: {
          id: 'r1',
          custom_rpc_urls: [
            { url: 'https://r.example/', weight: 100 },
            { url: 'https://q.example/', weight: 5 },
          ],
        },
      },
    ]);
  });

  it.each([
    [
      { relayers: [{ id: 'r1' }, { id: 'r1' }] },
      "relayers[1]: id 'r1' is defined more than once (first at relayers[0])",
    ],
    [{ relayers: [{ name: 'no id' }] }, 'relayers[0]: id must be 1 to 36 letters, digits, "-" or "_"'],
    [{ relayers: {} }, 'relayers must be an array'],
    [
      { notifications: [{ id: 'a', type: 'email', url: 'https://h.example/' }] },
      'notifications[0]: type must be "webhook"',
    ],
    [{ notifications: [{ id: 'a', type: 'webhook' }] }, 'notifications[0]: url must be a non-empty string'],
    [{ plugins: {} }, 'plugins must be an array'],
  ])('refuses %j naming the entry', async (config, message) => {
    expect(await problem({ networks, ...config })).toBe(message);
  });

  it('ignores an extra key of a relayer with one warning (19.4), and refuses it under CONFIG_STRICT=true', async () => {
    const warnings: string[] = [];
    const file = await load({ networks, relayers: [{ id: 'r1', gas_limit: 1 }] }, {}, false, (m) =>
      warnings.push(m),
    );
    expect(file.relayers).toEqual([{ id: 'r1', body: { id: 'r1' } }]);
    expect(warnings).toEqual([
      `CONFIG_FILE ${path.join(dir, 'config.json')}: relayers[0]: "gas_limit" is ignored (the reference system ignores it too)`,
    ]);
    expect(await problem({ networks, relayers: [{ id: 'r1', gas_limit: 1 }] }, {}, true)).toBe(
      'relayers[0]: key "gas_limit" not read: CONFIG_STRICT=true refuses the keys the reference system ignores',
    );
  });
});

describe('alert channels', () => {
  const networks = [evm('n1', { rpc_urls: ['https://a.example/'] })];
  const ROUTING_KEY = 'R'.repeat(32);
  const HOOK = 'https://hooks.slack.com/services/T0/B0/abcdef';

  it('reads each secret as a string, a plain secret or an env secret, the other fields as they are', async () => {
    const file = await load(
      {
        networks,
        alert_channels: [
          { id: 's1', type: 'slack', config: { webhook_url: HOOK }, events: ['relayer_low_balance'] },
          { id: 's2', type: 'slack', config: { webhook_url: { type: 'env', value: 'SLACK_HOOK' } } },
          { id: 'p1', type: 'pagerduty', config: { routing_key: ROUTING_KEY }, relayer_ids: ['r1'] },
          { id: 'p2', type: 'pagerduty', config: { routing_key: { type: 'plain', value: ROUTING_KEY } } },
          { id: 'p3', type: 'pagerduty', config: { routing_key: { type: 'env', value: 'PD_KEY' } } },
          { id: 'e1', type: 'email', config: { to: ['ops@example.com'] }, relayer_ids: null },
        ],
      },
      { SLACK_HOOK: `${HOOK}2`, PD_KEY: 'k'.repeat(32) },
    );
    expect(file.alertChannels).toEqual([
      {
        id: 's1',
        body: { id: 's1', type: 'slack', config: { webhook_url: HOOK }, events: ['relayer_low_balance'] },
      },
      { id: 's2', body: { id: 's2', type: 'slack', config: { webhook_url: `${HOOK}2` } } },
      {
        id: 'p1',
        body: { id: 'p1', type: 'pagerduty', config: { routing_key: ROUTING_KEY }, relayer_ids: ['r1'] },
      },
      { id: 'p2', body: { id: 'p2', type: 'pagerduty', config: { routing_key: ROUTING_KEY } } },
      { id: 'p3', body: { id: 'p3', type: 'pagerduty', config: { routing_key: 'k'.repeat(32) } } },
      {
        id: 'e1',
        body: { id: 'e1', type: 'email', config: { to: ['ops@example.com'] }, relayer_ids: null },
      },
    ]);
  });

  it('has none when the section is absent', async () => {
    expect((await load({ networks })).alertChannels).toEqual([]);
  });

  it.each([
    [
      [{ id: 'p', type: 'pagerduty', config: { routing_key: { type: 'env', value: 'UNSET_PD_KEY' } } }],
      'alert_channels[0]: config.routing_key: environment variable UNSET_PD_KEY is not set',
    ],
    [
      [{ id: 's', type: 'slack', config: { webhook_url: { type: 'vault', value: 'x' } } }],
      'alert_channels[0]: config.webhook_url: secret type must be env or plain',
    ],
    [
      [{ id: 'p', type: 'pagerduty', config: { routing_key: '***' } }],
      'alert_channels[0]: config.routing_key is masked (*** hides a secret that is not in the file)',
    ],
    [
      [{ id: 's', type: 'slack', config: { webhook_url: 'https://hooks.slack.com/services/T0/B0/***' } }],
      'alert_channels[0]: config.webhook_url is masked (*** hides a secret that is not in the file)',
    ],
    [
      [{ id: 's', type: 'slack', config: { webhook_url: HOOK }, relayers_ids: ['r1'] }],
      'alert_channels[0]: unknown key "relayers_ids" (expected id, type, config, events or relayer_ids)',
    ],
    [
      [
        { id: 'p', type: 'pagerduty', config: { routing_key: ROUTING_KEY } },
        { id: 'p', type: 'email', config: { to: ['ops@example.com'] } },
      ],
      "alert_channels[1]: id 'p' is defined more than once (first at alert_channels[0])",
    ],
    [
      [{ type: 'email', config: { to: [] } }],
      'alert_channels[0]: id must be 1 to 36 letters, digits, "-" or "_"',
    ],
    [{}, 'alert_channels must be an array'],
  ])('refuses %j naming the entry, never a secret', async (channels, message) => {
    expect(await problem({ networks, alert_channels: channels })).toBe(message);
  });

  it('refuses a key beyond its fields even without CONFIG_STRICT, with no warning', async () => {
    const warnings: string[] = [];
    const refused = await load(
      { networks, alert_channels: [{ id: 'e', type: 'email', config: { to: ['a@example.com'] }, note: 1 }] },
      {},
      false,
      (m) => warnings.push(m),
    ).then(
      () => null,
      (error: Error) => error.message,
    );
    expect({ refused, warnings }).toEqual({
      refused: `CONFIG_FILE ${path.join(dir, 'config.json')}: alert_channels[0]: unknown key "note" (expected id, type, config, events or relayer_ids)`,
      warnings: [],
    });
  });
});
