import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../../../src/bootstrap';
import { loadConfig } from '../../../src/config/app-config';
import { as } from '../../support/as-key';
import { successBody } from '../../support/envelope';
import { PagerDutyStandIn } from '../../support/pagerduty-stand-in';
import { secrets } from '../../support/secrets';
import { SlackStandIn } from '../../support/slack-stand-in';
import { SmtpReceiver } from '../../support/smtp-receiver';
import { newApiKey, startTestApp, type Env, type TestApp } from '../../support/test-app';
import { KEY1 } from '../../support/test-catalogue';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../../support/test-database';
import { createKey } from '../../factories';

/**
 * docs/reference/config-file.md#110-alert-channels-in-the-file: the file's `alert_channels`, applied at
 * every start through the API's rules (audit included), exported with their secrets as environment
 * references, and a fresh instance started on the export has the same channels.
 */

type Json = Record<string, unknown>;

const SLACK_SECRET = secrets.add(`slack${randomBytes(12).toString('hex')}`);
const ROUTING_KEY = secrets.add(randomBytes(16).toString('hex'));
const NEW_ROUTING_KEY = secrets.add(randomBytes(16).toString('hex'));
const SMTP_PASS = secrets.add(`smtp${randomBytes(8).toString('hex')}`);
const CONFIG_ACTOR = { type: 'config', id: null, name: 'config.json' };
const PAGERDUTY_EVENTS = ['relayer_state_update', 'relayer_low_balance', 'relayer_balance_restored'];
const CONFIG_COMMAND = path.resolve(__dirname, '../../../scripts/config.mjs');

/** The message a start fails with; the half-started app is closed. */
async function startError(env: Env): Promise<string> {
  const config = loadConfig({
    NODE_ENV: 'test',
    API_KEY: newApiKey(),
    LOG_LEVEL: 'silent',
    RELAYER_HEALTH_CHECKS: 'false',
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-data-')),
    ...env,
  });
  let app: Awaited<ReturnType<typeof createApp>> | null = null;
  try {
    app = await createApp(config);
    await app.init();
    return 'started';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await app?.close();
  }
}

describe(`the configuration file's alert channels, on ${TEST_DB}`, () => {
  const slack = new SlackStandIn();
  const pagerDuty = new PagerDutyStandIn();
  const smtp = new SmtpReceiver({ user: 'alerts', pass: SMTP_PASS });
  const slackPath = `/services/T0/B-file/${SLACK_SECRET}`;
  let database: TestDatabase;
  let file: string;
  let app: TestApp | null = null;

  const env = (): Env => ({
    DATABASE_URL: database.url,
    CONFIG_FILE: file,
    FILE_SIGNER_KEY: KEY1.hex,
    FILE_SLACK_HOOK: slack.url(slackPath),
    SMTP_URL: smtp.url(),
    ALERT_EMAIL_FROM: 'Relayer alerts <alerts@relayers.example.com>',
    PAGERDUTY_EVENTS_URL: pagerDuty.enqueueUrl(),
  });

  /** A file of one network and one signer, with the three channels `change` makes of these. */
  function config(change: (channels: Json[]) => Json[] = (channels) => channels, extra: Json = {}): Json {
    return {
      networks: [
        { type: 'evm', network: 'alerting', chain_id: 31337, rpc_urls: ['https://rpc.alerting.example/'] },
      ],
      signers: [
        { id: 'file-signer', type: 'plain', config: { key: { type: 'env', value: 'FILE_SIGNER_KEY' } } },
      ],
      notifications: [],
      relayers: [],
      alert_channels: change([
        {
          id: 'file-slack',
          type: 'slack',
          config: { webhook_url: { type: 'env', value: 'FILE_SLACK_HOOK' } },
          events: ['relayer_low_balance'],
        },
        {
          id: 'file-pd',
          type: 'pagerduty',
          config: { routing_key: ROUTING_KEY },
          relayer_ids: ['file-relayer'],
        },
        { id: 'file-mail', type: 'email', config: { to: ['ops@example.com', 'oncall@example.com'] } },
      ]),
      ...extra,
    };
  }

  /** The channels once the file gave file-pd a routing key from NEW_PD_KEY and dropped its relayer_ids. */
  const rotated = ([slackChannel, , mail]: Json[]): Json[] => [
    slackChannel,
    { id: 'file-pd', type: 'pagerduty', config: { routing_key: { type: 'env', value: 'NEW_PD_KEY' } } },
    mail,
  ];

  async function restart(next: Json, more: Env = {}): Promise<TestApp> {
    await app?.close();
    app = null;
    fs.writeFileSync(file, JSON.stringify(next));
    app = await startTestApp({ ...env(), ...more });
    return app;
  }
  const current = (): TestApp => {
    if (!app) throw new Error('no app');
    return app;
  };
  const channel = async (id: string): Promise<unknown> => {
    const res = await current().get(`/api/v1/alert-channels/${id}`);
    expect(secrets.foundIn(res.text)).toEqual([]);
    return { status: res.status, body: res.body as unknown };
  };
  const auditOf = async (id: string): Promise<Json[]> => {
    const res = await current()
      .get(`/api/v1/audit?resource_type=alert_channel&resource_id=${id}&per_page=100`)
      .expect(200);
    expect(secrets.foundIn(res.text)).toEqual([]);
    return (res.body.data as Json[]).map(({ actor, action }) => ({ actor, action }));
  };
  const logLines = async (pattern: RegExp): Promise<string[]> =>
    (await current().waitForLog(pattern)).map((line) => (JSON.parse(line) as { msg: string }).msg);
  /** The routing keys of the PagerDuty events received since `from`. */
  const routingKeys = (from: number): string[] =>
    pagerDuty.events.slice(from).map((event) => (event.json as { routing_key: string }).routing_key);

  beforeAll(async () => {
    await Promise.all([slack.start(), pagerDuty.start(), smtp.start()]);
    database = await createTestDatabase();
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'alert-channels-config-')), 'config.json');
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all([slack.close(), pagerDuty.close(), smtp.close()]);
    await database.drop();
    if (app) expect(secrets.foundIn(app.logText())).toEqual([]);
  });

  it('creates the channels of the file as the API would: answered masked, audited as config, their secrets the ones sent to', async () => {
    await restart(config());
    expect(await channel('file-slack')).toEqual({
      status: 200,
      body: successBody({
        id: 'file-slack',
        type: 'slack',
        config: { webhook_url: slack.url('/services/T0/B-file/***') },
        events: ['relayer_low_balance'],
        relayer_ids: null,
      }),
    });
    expect(await channel('file-pd')).toEqual({
      status: 200,
      body: successBody({
        id: 'file-pd',
        type: 'pagerduty',
        config: { routing_key: '***' },
        events: PAGERDUTY_EVENTS,
        relayer_ids: ['file-relayer'],
      }),
    });
    expect(await channel('file-mail')).toEqual({
      status: 200,
      body: successBody({
        id: 'file-mail',
        type: 'email',
        config: { to: ['ops@example.com', 'oncall@example.com'] },
        events: null,
        relayer_ids: null,
      }),
    });
    for (const id of ['file-slack', 'file-pd', 'file-mail']) {
      expect({ id, audit: await auditOf(id) }).toEqual({
        id,
        audit: [{ actor: CONFIG_ACTOR, action: 'alert_channel.create' }],
      });
    }
    expect(await logLines(/create alert_channel/)).toEqual([
      "create alert_channel 'file-slack' (alert_channels[0])",
      "create alert_channel 'file-pd' (alert_channels[1])",
      "create alert_channel 'file-mail' (alert_channels[2])",
    ]);
    // The secrets the file gave (one of them through a variable) are where messages go.
    await current().post('/api/v1/alert-channels/file-slack/test').expect(200);
    expect(slack.to(slackPath)).toHaveLength(1);
    const before = pagerDuty.events.length;
    await current().post('/api/v1/alert-channels/file-pd/test').expect(200);
    expect(routingKeys(before)).toEqual([ROUTING_KEY, ROUTING_KEY]);
  });

  it('changes nothing on a restart with the same file, and keeps what the API changed', async () => {
    await current()
      .patch('/api/v1/alert-channels/file-mail', { events: ['relayer_low_balance'] })
      .expect(200);
    await restart(config());
    expect(await auditOf('file-mail')).toEqual([
      { actor: { type: 'admin', id: 'admin', name: 'API_KEY' }, action: 'alert_channel.update' },
      { actor: CONFIG_ACTOR, action: 'alert_channel.create' },
    ]);
    expect(await auditOf('file-pd')).toEqual([{ actor: CONFIG_ACTOR, action: 'alert_channel.create' }]);
    const mail = (await current().get('/api/v1/alert-channels/file-mail').expect(200)).body.data as Json;
    expect(mail.events).toEqual(['relayer_low_balance']);
  });

  it('writes only the fields the file changed, resetting one it no longer has, audited as config', async () => {
    await restart(config(rotated), { NEW_PD_KEY: NEW_ROUTING_KEY });
    expect(await logLines(/update alert_channel/)).toEqual([
      "update alert_channel 'file-pd' (alert_channels[1]): config, relayer_ids",
    ]);
    expect(await channel('file-pd')).toEqual({
      status: 200,
      body: successBody({
        id: 'file-pd',
        type: 'pagerduty',
        config: { routing_key: '***' },
        events: PAGERDUTY_EVENTS,
        relayer_ids: null,
      }),
    });
    expect(await auditOf('file-pd')).toEqual([
      { actor: CONFIG_ACTOR, action: 'alert_channel.update' },
      { actor: CONFIG_ACTOR, action: 'alert_channel.create' },
    ]);
    const before = pagerDuty.events.length;
    await current().post('/api/v1/alert-channels/file-pd/test').expect(200);
    expect(routingKeys(before)).toEqual([NEW_ROUTING_KEY, NEW_ROUTING_KEY]);
  });

  it('stops the start naming the entry: a rule of the API, a missing variable, a type that changed; no relayer names a channel', async () => {
    const audits = async () =>
      Promise.all(['file-slack', 'file-pd', 'file-mail'].map(async (id) => (await auditOf(id)).length));
    const auditsBefore = await audits();
    await app?.close();
    app = null;
    // Each on the file as last applied: only the entry named differs.
    const stops = async (change: (channels: Json[]) => Json[], extra: Json = {}, more: Env = {}) => {
      fs.writeFileSync(file, JSON.stringify(config((channels) => change(rotated(channels)), extra)));
      return startError({ ...env(), NEW_PD_KEY: NEW_ROUTING_KEY, ...more });
    };
    expect(
      await stops((channels) => [
        ...channels,
        { id: 'file-pd-2', type: 'pagerduty', config: { routing_key: 'not-a-key' } },
      ]),
    ).toBe(
      `CONFIG_FILE ${file}: alert_channels[3].config.routing_key must be an integration key of 32 letters and digits`,
    );
    expect(
      await stops(
        (channels) => [...channels, { id: 'file-mail-2', type: 'email', config: { to: ['a@example.com'] } }],
        {},
        { SMTP_URL: undefined, ALERT_EMAIL_FROM: undefined },
      ),
    ).toBe(
      `CONFIG_FILE ${file}: alert_channels[3].config.to: e-mail channels need SMTP_URL set on the service`,
    );
    expect(await stops((channels) => channels, {}, { FILE_SLACK_HOOK: undefined })).toBe(
      `CONFIG_FILE ${file}: alert_channels[0]: config.webhook_url: environment variable FILE_SLACK_HOOK is not set`,
    );
    expect(
      await stops(([slackChannel, pd]) => [
        slackChannel,
        pd,
        { id: 'file-mail', type: 'slack', config: { webhook_url: slack.url('/services/T0/B2/x') } },
      ]),
    ).toBe(
      `CONFIG_FILE ${file}: alert_channels[2] (alert channel 'file-mail'): type cannot change (stored "email"); delete the alert channel through the API first`,
    );
    const relayer = {
      id: 'file-relayer',
      name: 'File relayer',
      network: 'alerting',
      network_type: 'evm',
      paused: false,
      signer_id: 'file-signer',
      notification_id: 'file-slack',
    };
    expect(await stops((channels) => channels, { relayers: [relayer] })).toBe(
      `CONFIG_FILE ${file}: relayers[0]: Notification with ID file-slack not found`,
    );
    // None of them wrote anything.
    await restart(config(rotated), { NEW_PD_KEY: NEW_ROUTING_KEY });
    expect(await audits()).toEqual(auditsBefore);
    const listed = (await current().get('/api/v1/alert-channels?per_page=100').expect(200)).body
      .data as Json[];
    expect(listed.map(({ id }) => id).sort()).toEqual(['file-mail', 'file-pd', 'file-slack']);
  });

  it('exports every channel with its secrets as env references, and a fresh instance on the export has the same channels', async () => {
    // One through the API, its URL one of which masking hides nothing: exported whole.
    await current()
      .post('/api/v1/alert-channels', {
        id: 'api-slack',
        type: 'slack',
        config: { webhook_url: slack.url('/') },
        relayer_ids: ['r-2', 'r-1'],
      })
      .expect(201);
    const res = await current().get('/api/v1/config').expect(200);
    expect(secrets.foundIn(res.text)).toEqual([]);
    const exported = res.body.data as Json;
    const byId = (list: Json[]) => [...list].sort((a, b) => String(a.id).localeCompare(String(b.id)));
    expect(byId(exported.alert_channels as Json[])).toEqual([
      {
        id: 'api-slack',
        type: 'slack',
        config: { webhook_url: slack.url('/') },
        events: null,
        relayer_ids: ['r-1', 'r-2'],
      },
      {
        id: 'file-mail',
        type: 'email',
        config: { to: ['ops@example.com', 'oncall@example.com'] },
        events: ['relayer_low_balance'],
        relayer_ids: null,
      },
      {
        id: 'file-pd',
        type: 'pagerduty',
        config: { routing_key: { type: 'env', value: 'ALERT_CHANNEL_FILE_PD_ROUTING_KEY' } },
        events: PAGERDUTY_EVENTS,
        relayer_ids: null,
      },
      {
        id: 'file-slack',
        type: 'slack',
        config: { webhook_url: { type: 'env', value: 'ALERT_CHANNEL_FILE_SLACK_WEBHOOK_URL' } },
        events: ['relayer_low_balance'],
        relayer_ids: null,
      },
    ]);

    const channels = async (target: TestApp): Promise<Json[]> =>
      byId((await target.get('/api/v1/alert-channels?per_page=100').expect(200)).body.data as Json[]);
    const before = await channels(current());
    const fresh = await createTestDatabase();
    const exportFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'exported-')), 'config.json');
    fs.writeFileSync(exportFile, JSON.stringify(exported));
    const copy = await startTestApp({
      ...env(),
      DATABASE_URL: fresh.url,
      CONFIG_FILE: exportFile,
      SIGNER_FILE_SIGNER_KEY: KEY1.hex,
      ALERT_CHANNEL_FILE_PD_ROUTING_KEY: NEW_ROUTING_KEY,
      ALERT_CHANNEL_FILE_SLACK_WEBHOOK_URL: slack.url(slackPath),
    });
    try {
      expect(await channels(copy)).toEqual(before);
      // The secrets came through: the copy's messages go where the source's went.
      const sent = slack.to(slackPath).length;
      await copy.post('/api/v1/alert-channels/file-slack/test').expect(200);
      expect(slack.to(slackPath)).toHaveLength(sent + 1);
      const events = pagerDuty.events.length;
      await copy.post('/api/v1/alert-channels/file-pd/test').expect(200);
      expect(routingKeys(events)).toEqual([NEW_ROUTING_KEY, NEW_ROUTING_KEY]);
      expect(secrets.foundIn(copy.logText())).toEqual([]);
    } finally {
      await copy.close();
      await fresh.drop();
    }
  });

  it('exports to a key limited to relayer_ids only the channels it may see, each with the relayers it may see', async () => {
    await current()
      .post('/api/v1/alert-channels', {
        id: 'team-a-pd',
        type: 'pagerduty',
        config: { routing_key: ROUTING_KEY },
        relayer_ids: ['team-a-1', 'team-b-1'],
      })
      .expect(201);
    const team = (await createKey(current(), { permissions: ['config:read'], relayer_ids: ['team-a-*'] }))
      .key;
    const res = await as(current(), team).get('/api/v1/config');
    expect({ status: res.status, channels: (res.body.data as Json).alert_channels }).toEqual({
      status: 200,
      channels: [
        {
          id: 'team-a-pd',
          type: 'pagerduty',
          config: { routing_key: { type: 'env', value: 'ALERT_CHANNEL_TEAM_A_PD_ROUTING_KEY' } },
          events: PAGERDUTY_EVENTS,
          relayer_ids: ['team-a-1'],
        },
      ],
    });
  });

  it('config check judges the channels by the rules of a start, and config plan names their changes', () => {
    const run = (...args: string[]) => {
      const result = spawnSync(process.execPath, [CONFIG_COMMAND, ...args], {
        cwd: path.dirname(file),
        env: {
          ...process.env,
          ...env(),
          NEW_PD_KEY: NEW_ROUTING_KEY,
          INIT_CWD: path.dirname(file),
          NODE_ENV: 'test',
        },
        encoding: 'utf8',
      });
      return { status: result.status, stdout: result.stdout, stderr: result.stderr };
    };
    expect(run('check')).toEqual({
      status: 0,
      stdout: `${file}: valid (1 networks, 1 signers, 0 relayers, 0 notifications, 3 alert channels, 0 plugins)\n`,
      stderr: '',
    });
    const changed = path.join(path.dirname(file), 'changed.json');
    fs.writeFileSync(
      changed,
      JSON.stringify(
        config((channels) => {
          const [slackChannel, pd, mail] = rotated(channels);
          return [
            { ...slackChannel, events: null },
            pd,
            mail,
            { id: 'file-mail-2', type: 'email', config: { to: ['b@example.com'] } },
          ];
        }),
      ),
    );
    expect(run('plan', changed)).toEqual({
      status: 0,
      stdout:
        "update alert_channel 'file-slack' (alert_channels[0]): events\n" +
        "create alert_channel 'file-mail-2' (alert_channels[3])\n",
      stderr: '',
    });
    const bad = path.join(path.dirname(file), 'bad.json');
    fs.writeFileSync(
      bad,
      JSON.stringify(
        config(([slackChannel]) => [
          { ...slackChannel, relayer_ids: [] },
          { id: 'bad-pd', type: 'pagerduty', config: { routing_key: 'short' }, events: ['relayer_created'] },
        ]),
      ),
    );
    expect(run('check', bad)).toEqual({
      status: 1,
      stdout: '',
      stderr: [
        `CONFIG_FILE ${bad}: alert_channels[0].relayer_ids must be an array of 1 to 1000 relayer ids, ["*"], or null (every relayer)`,
        `CONFIG_FILE ${bad}: alert_channels[1].config.routing_key must be an integration key of 32 letters and digits`,
        `CONFIG_FILE ${bad}: alert_channels[1].events[0] must be one of: relayer_state_update, relayer_low_balance, relayer_balance_restored (a pagerduty channel)`,
        '',
      ].join('\n'),
    });
  });
});
