import { randomBytes } from 'node:crypto';
import { as } from '../../support/as-key';
import { expectError, successBody } from '../../support/envelope';
import { secrets } from '../../support/secrets';
import { SlackStandIn } from '../../support/slack-stand-in';
import { SmtpReceiver } from '../../support/smtp-receiver';
import { useTestApp } from '../../support/test-app';
import { TEST_DB } from '../../support/test-database';
import { createKey, relayerBody, uid } from '../../factories';

/**
 * docs/reference/alert-channels.md: the resource. Its delivery is alert-channel-delivery.e2e-spec.ts.
 */

const SLACK_SECRET = secrets.add(`slack${randomBytes(12).toString('hex')}`);
const ROUTING_KEY = secrets.add(randomBytes(16).toString('hex'));
const OTHER_ROUTING_KEY = secrets.add(randomBytes(16).toString('hex'));
const SMTP_PASS = secrets.add(`smtp${randomBytes(8).toString('hex')}`);
const ADMIN = { type: 'admin', id: 'admin', name: 'API_KEY' };
const PAGERDUTY_EVENTS = ['relayer_state_update', 'relayer_low_balance', 'relayer_balance_restored'];

interface AuditRecord {
  actor: object;
  action: string;
  resource_id: string;
  before: object | null;
  after: object | null;
}

describe(`alert channels: the resource, on ${TEST_DB}`, () => {
  const slack = new SlackStandIn();
  const smtp = new SmtpReceiver({ user: 'alerts', pass: SMTP_PASS });
  beforeAll(async () => {
    await Promise.all([slack.start(), smtp.start()]);
  });
  afterAll(async () => {
    await Promise.all([slack.close(), smtp.close()]);
  });
  const handle = useTestApp(() => ({
    SMTP_URL: smtp.url({ user: 'alerts', pass: SMTP_PASS }),
    ALERT_EMAIL_FROM: 'Relayer alerts <alerts@relayers.example.com>',
  }));
  const app = () => handle.current;
  const hookUrl = (name: string) => slack.url(`/services/T0/${name}/${SLACK_SECRET}`);
  const masked = (name: string) => slack.url(`/services/T0/${name}/***`);
  const createChannel = async (body: object) => {
    const res = await app().post('/api/v1/alert-channels', body);
    expect(res.status).toBe(201);
    expect(secrets.foundIn(res.text)).toEqual([]);
    return res.body.data as { id: string };
  };
  const audit = async (id: string): Promise<AuditRecord[]> => {
    const res = await app().get(`/api/v1/audit?resource_type=alert_channel&resource_id=${id}`).expect(200);
    expect(secrets.foundIn(res.text)).toEqual([]);
    return (res.body.data as AuditRecord[]).map(({ actor, action, resource_id, before, after }) => ({
      actor,
      action,
      resource_id,
      before,
      after,
    }));
  };

  it('a channel of each type: created 201, read, listed and answered with its secrets masked', async () => {
    const [s, p, e] = [uid('slack'), uid('pd'), uid('mail')];
    const slackChannel = {
      id: s,
      type: 'slack',
      config: { webhook_url: masked('B1') },
      events: null,
      relayer_ids: null,
    };
    const pagerDuty = {
      id: p,
      type: 'pagerduty',
      config: { routing_key: '***' },
      events: PAGERDUTY_EVENTS,
      relayer_ids: ['r-2', 'r-1'].sort(),
    };
    const email = {
      id: e,
      type: 'email',
      config: { to: ['ops@example.com', 'oncall@example.com'] },
      events: ['relayer_low_balance', 'relayer_balance_restored'],
      relayer_ids: null,
    };
    expect(await createChannel({ id: s, type: 'slack', config: { webhook_url: hookUrl('B1') } })).toEqual(
      slackChannel,
    );
    expect(
      await createChannel({
        id: p,
        type: 'pagerduty',
        config: { routing_key: ROUTING_KEY },
        relayer_ids: ['r-2', 'r-1', 'r-2'],
      }),
    ).toEqual(pagerDuty);
    expect(
      await createChannel({
        id: e,
        type: 'email',
        config: { to: ['ops@example.com', 'oncall@example.com', 'ops@example.com'] },
        events: ['relayer_balance_restored', 'relayer_low_balance'],
        relayer_ids: ['*'],
      }),
    ).toEqual(email);

    for (const channel of [slackChannel, pagerDuty, email]) {
      const res = await app().get(`/api/v1/alert-channels/${channel.id}`);
      expect({ status: res.status, body: res.body, etag: typeof res.headers.etag }).toEqual({
        status: 200,
        body: successBody(channel),
        etag: 'string',
      });
    }
    const list = await app().get('/api/v1/alert-channels?per_page=100').expect(200);
    expect(secrets.foundIn(list.text)).toEqual([]);
    const listed = (list.body.data as Array<{ id: string }>).filter((c) => [s, p, e].includes(c.id));
    expect(listed).toEqual([slackChannel, pagerDuty, email]);
  });

  it('a channel is no notification, and a webhook no channel: each 404 under the other, and no relayer names a channel', async () => {
    const channel = (await createChannel({ type: 'slack', config: { webhook_url: hookUrl('B2') } })).id;
    const hook = uid('hook');
    await app()
      .post('/api/v1/notifications', { id: hook, url: slack.url('/hook') })
      .expect(201);
    for (const path of ['', '/deliveries', '/state', '/stats', '/subscription', '/signing-scheme']) {
      expectError(await app().get(`/api/v1/notifications/${channel}${path}`), 404, 'Notification not found');
    }
    expectError(await app().post(`/api/v1/notifications/${channel}/pause`), 404, 'Notification not found');
    expectError(await app().delete(`/api/v1/notifications/${channel}`), 404, 'Notification not found');
    for (const path of ['', '/deliveries', '/state', '/stats', '/stats/series']) {
      expectError(await app().get(`/api/v1/alert-channels/${hook}${path}`), 404, 'Alert channel not found');
    }
    expectError(await app().post(`/api/v1/alert-channels/${hook}/test`), 404, 'Alert channel not found');
    expectError(await app().delete(`/api/v1/alert-channels/${hook}`), 404, 'Alert channel not found');
    const notifications = await app().get('/api/v1/notifications?per_page=100').expect(200);
    const ids = (notifications.body.data as Array<{ id: string }>).map((n) => n.id);
    expect({ hook: ids.includes(hook), channel: ids.includes(channel) }).toEqual({
      hook: true,
      channel: false,
    });
    const relayer = await app().post('/api/v1/relayers', relayerBody('evm', { notification_id: channel }));
    expectError(relayer, 400, `Notification with ID ${channel} not found`);
  });

  it('bad input: 400 naming each field, at create and at update; nothing written', async () => {
    const bad: Array<[object, string]> = [
      [{ type: 'sms', config: {} }, 'type must be one of: slack, pagerduty, email'],
      [{ type: 'slack' }, 'config must be an object'],
      [{ type: 'slack', config: 'https://x.example.com' }, 'config must be an object'],
      [
        { type: 'slack', config: { webhook_url: 'ftp://hooks.example.com/x' } },
        'config.webhook_url must be an http or https URL',
      ],
      [
        { type: 'slack', config: { webhook_url: 'http://169.254.169.254/latest/meta-data' } },
        'config.webhook_url points to a cloud metadata address',
      ],
      [
        { type: 'slack', config: { webhook_url: hookUrl('B3'), channel: '#ops' } },
        'config.channel is not an allowed field for a slack channel',
      ],
      [
        { type: 'pagerduty', config: { routing_key: 'short' } },
        'config.routing_key must be an integration key of 32 letters and digits',
      ],
      [
        { type: 'pagerduty', config: { routing_key: ROUTING_KEY }, events: ['relayer_created'] },
        'events[0] must be one of: relayer_state_update, relayer_low_balance, relayer_balance_restored (a pagerduty channel)',
      ],
      [
        { type: 'email', config: { to: ['ops@example.com', 'not an address'] } },
        'config.to[1] must be an e-mail address (name@example.com)',
      ],
      [{ type: 'email', config: { to: [] } }, 'config.to must be an array of 1 to 20 e-mail addresses'],
      [
        { type: 'slack', config: { webhook_url: hookUrl('B3') }, events: ['relayer_exploded'] },
        'events[0] must be one of: relayer_created, relayer_updated, relayer_deleted, relayer_state_update, notification_test, relayer_low_balance, relayer_balance_restored',
      ],
      [
        { type: 'slack', config: { webhook_url: hookUrl('B3') }, relayer_ids: [] },
        'relayer_ids must be an array of 1 to 1000 relayer ids, ["*"], or null (every relayer)',
      ],
      [
        { type: 'slack', config: { webhook_url: hookUrl('B3') }, paused: true },
        'paused is not an allowed field',
      ],
    ];
    for (const [body, message] of bad) {
      const res = await app().post('/api/v1/alert-channels', body);
      expect({ body, status: res.status, message: res.body.message as string }).toEqual({
        body,
        status: 400,
        message,
      });
    }
    const id = (await createChannel({ type: 'pagerduty', config: { routing_key: ROUTING_KEY } })).id;
    const badPatches: Array<[object, string]> = [
      [
        { config: { routing_key: 'x' } },
        'config.routing_key must be an integration key of 32 letters and digits',
      ],
      [
        { config: { webhook_url: hookUrl('B4') } },
        'config.routing_key must be an integration key of 32 letters and digits; config.webhook_url is not an allowed field for a pagerduty channel',
      ],
      [
        { events: ['relayer_updated'] },
        'events[0] must be one of: relayer_state_update, relayer_low_balance, relayer_balance_restored (a pagerduty channel)',
      ],
      [{ config: null }, 'config must be an object'],
      [{ type: 'slack' }, 'type is not an allowed field'],
    ];
    for (const [body, message] of badPatches) {
      const res = await app().patch(`/api/v1/alert-channels/${id}`, body);
      expect({ body, status: res.status, message: res.body.message as string }).toEqual({
        body,
        status: 400,
        message,
      });
    }
    expect((await app().get(`/api/v1/alert-channels/${id}`).expect(200)).body.data).toEqual({
      id,
      type: 'pagerduty',
      config: { routing_key: '***' },
      events: PAGERDUTY_EVENTS,
      relayer_ids: null,
    });
  });

  it('PATCH: masked secrets sent back keep the stored ones, a new one replaces them; each change audited as alert_channel.*', async () => {
    const s = (await createChannel({ type: 'slack', config: { webhook_url: hookUrl('B5') } })).id;
    const same = await app().patch(`/api/v1/alert-channels/${s}`, {
      config: { webhook_url: masked('B5') },
      events: ['relayer_low_balance'],
    });
    expect({ status: same.status, body: same.body }).toEqual({
      status: 200,
      body: successBody({
        id: s,
        type: 'slack',
        config: { webhook_url: masked('B5') },
        events: ['relayer_low_balance'],
        relayer_ids: null,
      }),
    });
    // What the masked URL kept is where the test message goes.
    const tested = await app().post(`/api/v1/alert-channels/${s}/test`).expect(200);
    expect(tested.body.data).toEqual({
      delivered: true,
      status_code: 200,
      error: null,
      duration_ms: expect.any(Number),
    });
    expect(slack.to(`/services/T0/B5/${SLACK_SECRET}`)).toHaveLength(1);
    const unmatched = await app().patch(`/api/v1/alert-channels/${s}`, {
      config: { webhook_url: masked('B6') },
    });
    expectError(unmatched, 400, 'config.webhook_url is masked but stands for no stored URL');
    const moved = await app().patch(`/api/v1/alert-channels/${s}`, {
      config: { webhook_url: hookUrl('B6') },
      relayer_ids: ['r-9'],
    });
    expect(moved.body.data).toEqual({
      id: s,
      type: 'slack',
      config: { webhook_url: masked('B6') },
      events: ['relayer_low_balance'],
      relayer_ids: ['r-9'],
    });

    const p = (await createChannel({ type: 'pagerduty', config: { routing_key: ROUTING_KEY } })).id;
    await app()
      .patch(`/api/v1/alert-channels/${p}`, { config: { routing_key: '***' } })
      .expect(200);
    await app()
      .patch(`/api/v1/alert-channels/${p}`, { config: { routing_key: OTHER_ROUTING_KEY } })
      .expect(200);

    const deleted = await app().delete(`/api/v1/alert-channels/${s}`);
    expect({ status: deleted.status, body: deleted.body }).toEqual({
      status: 200,
      body: successBody('Alert channel deleted successfully'),
    });
    expectError(await app().get(`/api/v1/alert-channels/${s}`), 404, 'Alert channel not found');
    const before = {
      id: s,
      type: 'slack',
      config: { webhook_url: masked('B5') },
      events: null,
      relayer_ids: null,
    };
    const lowOnly = { ...before, events: ['relayer_low_balance'] };
    const last = { ...lowOnly, config: { webhook_url: masked('B6') }, relayer_ids: ['r-9'] };
    expect(await audit(s)).toEqual([
      { actor: ADMIN, action: 'alert_channel.delete', resource_id: s, before: last, after: null },
      { actor: ADMIN, action: 'alert_channel.update', resource_id: s, before: lowOnly, after: last },
      { actor: ADMIN, action: 'alert_channel.update', resource_id: s, before, after: lowOnly },
      { actor: ADMIN, action: 'alert_channel.create', resource_id: s, before: null, after: before },
    ]);
    // The routing key sent back masked changed nothing: one record for the new key.
    expect((await audit(p)).map((r) => r.action)).toEqual(['alert_channel.update', 'alert_channel.create']);
    expect(secrets.foundIn(app().logText())).toEqual([]);
  });

  it('a key limited to some relayers: its channels only, named inside its scope, never every relayer', async () => {
    const team = uid('team');
    const { key } = await createKey(app(), {
      permissions: ['notifications:read', 'notifications:write'],
      relayer_ids: [`${team}-*`],
    });
    const mine = `${team}-alerts`;
    const body = {
      id: mine,
      type: 'slack',
      config: { webhook_url: hookUrl('B7') },
      relayer_ids: [`${team}-1`],
    };
    const created = await as(app(), key).post('/api/v1/alert-channels', body);
    expect({ status: created.status, body: created.body }).toEqual({
      status: 201,
      body: successBody({ ...body, config: { webhook_url: masked('B7') }, events: null }),
    });
    const refused: object[] = [
      { ...body, id: `${team}-every`, relayer_ids: null },
      { ...body, id: `${team}-star`, relayer_ids: ['*'] },
      { ...body, id: `${team}-other`, relayer_ids: ['someone-else-1'] },
      { ...body, id: uid('outside') },
    ];
    for (const attempt of refused) {
      const res = await as(app(), key).post('/api/v1/alert-channels', attempt);
      expect({ attempt, status: res.status }).toEqual({ attempt, status: 403 });
    }
    const theirs = (await createChannel({ type: 'slack', config: { webhook_url: hookUrl('B8') } })).id;
    expectError(await as(app(), key).get(`/api/v1/alert-channels/${theirs}`), 404, 'Alert channel not found');
    const list = await as(app(), key).get('/api/v1/alert-channels?per_page=100').expect(200);
    expect((list.body.data as Array<{ id: string }>).map((c) => c.id)).toEqual([mine]);
    // A channel it sees (its id is in the scope) but that hears relayers beyond it: its address,
    // events, pause and deletion would reach other teams' events (found by the attacker's read).
    const every = (
      await createChannel({ id: `${team}-every`, type: 'slack', config: { webhook_url: hookUrl('B11') } })
    ).id;
    const shared = (
      await createChannel({
        id: `${team}-shared`,
        type: 'slack',
        config: { webhook_url: hookUrl('B12') },
        relayer_ids: [`${team}-1`, 'other-team-1'],
      })
    ).id;
    const theirUrl = { config: { webhook_url: 'https://attacker.example.com/hook' } };
    for (const id of [every, shared]) {
      const attempts = [
        await as(app(), key).patch(`/api/v1/alert-channels/${id}`, theirUrl),
        await as(app(), key).patch(`/api/v1/alert-channels/${id}`, { events: ['relayer_created'] }),
        await as(app(), key).post(`/api/v1/alert-channels/${id}/pause`),
        await as(app(), key).post(`/api/v1/alert-channels/${id}/resume`),
        await as(app(), key).post(`/api/v1/alert-channels/${id}/test`),
        await as(app(), key).delete(`/api/v1/alert-channels/${id}`),
      ];
      expect({ id, statuses: attempts.map((res) => res.status) }).toEqual({
        id,
        statuses: [403, 403, 403, 403, 403, 403],
      });
    }
    // Its own part of the shared channel it may change; the other team's stays.
    const part = await as(app(), key).patch(`/api/v1/alert-channels/${shared}`, {
      relayer_ids: [`${team}-2`],
    });
    expect({ status: part.status, ids: part.body.data.relayer_ids }).toEqual({
      status: 200,
      ids: [`${team}-2`],
    });
    expect((await app().get(`/api/v1/alert-channels/${shared}`).expect(200)).body.data.relayer_ids).toEqual(
      [`${team}-2`, 'other-team-1'].sort(),
    );
    expect((await app().get(`/api/v1/alert-channels/${every}`).expect(200)).body.data.config).toEqual({
      webhook_url: masked('B11'),
    });
    // Its own channel, whole.
    const own = await as(app(), key).patch(`/api/v1/alert-channels/${mine}`, {
      config: { webhook_url: hookUrl('B13') },
    });
    expect({ status: own.status, config: own.body.data.config }).toEqual({
      status: 200,
      config: { webhook_url: masked('B13') },
    });
    const noId = await as(app(), key).post('/api/v1/alert-channels', { ...body, id: undefined });
    expectError(
      noId,
      400,
      'id is required: this API key may create only alert channels of its relayer_ids, so it must name one',
    );
  });

  it('a reader may not write: 403 for a key with notifications:read only', async () => {
    const { key } = await createKey(app(), { permissions: ['notifications:read'] });
    const res = await as(app(), key).post('/api/v1/alert-channels', {
      type: 'slack',
      config: { webhook_url: hookUrl('B9') },
    });
    expect(res.status).toBe(403);
    expect((await as(app(), key).get('/api/v1/alert-channels').expect(200)).body.success).toBe(true);
  });

  it('If-Match: the ETag moves with every write, and a stale one is 412', async () => {
    const s = (await createChannel({ type: 'slack', config: { webhook_url: hookUrl('B10') } })).id;
    const first = (await app().get(`/api/v1/alert-channels/${s}`).expect(200)).headers.etag;
    await app()
      .patch(`/api/v1/alert-channels/${s}`, { events: ['relayer_created'] })
      .expect(200);
    const second = (await app().get(`/api/v1/alert-channels/${s}`).expect(200)).headers.etag;
    expect(second === first).toBe(false);
    const stale = await app()
      .patch(`/api/v1/alert-channels/${s}`, { events: ['relayer_deleted'] })
      .set('If-Match', first);
    expect(stale.status).toBe(412);
    const current = await app()
      .patch(`/api/v1/alert-channels/${s}`, { events: ['relayer_deleted'] })
      .set('If-Match', second);
    expect({ status: current.status, events: current.body.data.events }).toEqual({
      status: 200,
      events: ['relayer_deleted'],
    });
  });
});
