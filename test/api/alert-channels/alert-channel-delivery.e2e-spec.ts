import { randomBytes } from 'node:crypto';
import { successBody } from '../../support/envelope';
import { EvmRpc } from '../../support/evm-rpc';
import { PagerDutyStandIn } from '../../support/pagerduty-stand-in';
import { secrets } from '../../support/secrets';
import { SlackStandIn } from '../../support/slack-stand-in';
import { SmtpReceiver } from '../../support/smtp-receiver';
import { useTestApp } from '../../support/test-app';
import { writeConfigFile } from '../../support/test-catalogue';
import { TEST_DB } from '../../support/test-database';
import { waitFor } from '../../support/wait';
import { fileSigners, ISO, relayerBody, uid } from '../../factories';

/**
 * docs/reference/alert-channels.md: what a channel receives, through the webhooks' machinery, against
 * stand-ins that check every request against the provider's documented format and a real SMTP server.
 */

const SLACK_SECRET = secrets.add(`slack${randomBytes(12).toString('hex')}`);
const ROUTING_KEY = secrets.add(randomBytes(16).toString('hex'));
const SMTP_PASS = secrets.add(`smtp${randomBytes(8).toString('hex')}`);
const PUBLIC_URL = 'https://relayers.example.com';
const SYSTEM = { type: 'system', id: 'system', name: 'service' };
const PAUSE_AFTER = 2;
const ETH = 10n ** 18n;

interface Delivery {
  event: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
}

describe(`alert channels: Slack, PagerDuty and e-mail deliveries, on ${TEST_DB}`, () => {
  const node = new EvmRpc();
  const slack = new SlackStandIn();
  const pagerDuty = new PagerDutyStandIn();
  const smtp = new SmtpReceiver({ user: 'alerts', pass: SMTP_PASS });
  let catalogue = '';
  let nextSigner = 0;
  beforeAll(async () => {
    await Promise.all([node.start(), slack.start(), pagerDuty.start(), smtp.start()]);
    catalogue = writeConfigFile({
      networks: [
        { type: 'evm', network: 'alerting', chain_id: 31337, symbol: 'tETH', rpc_urls: [node.url('/')] },
      ],
      signers: fileSigners('alert', 20),
    });
  });
  afterAll(async () => {
    await Promise.all([node.close(), slack.close(), pagerDuty.close(), smtp.close()]);
  });
  // An interval of an hour: only the creates' first checks and the checks asked for here run.
  const handle = useTestApp(() => ({
    CONFIG_FILE: catalogue,
    RELAYER_HEALTH_CHECKS: 'true',
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '3600',
    RELAYER_HEALTH_RETRY_SECONDS: '3600',
    RPC_TIMEOUT_MS: '2000',
    WEBHOOK_RETRY_BASE_MS: '40',
    WEBHOOK_MAX_ATTEMPTS: '2',
    WEBHOOK_PAUSE_AFTER_FAILURES: String(PAUSE_AFTER),
    SMTP_URL: smtp.url({ user: 'alerts', pass: SMTP_PASS }),
    ALERT_EMAIL_FROM: 'Relayer alerts <alerts@relayers.example.com>',
    PAGERDUTY_EVENTS_URL: pagerDuty.enqueueUrl(),
    PUBLIC_URL,
  }));
  const app = () => handle.current;
  const slackPath = (name: string) => `/services/T1/${name}/${SLACK_SECRET}`;

  const channel = async (body: object): Promise<string> => {
    const res = await app().post('/api/v1/alert-channels', body);
    expect(res.status).toBe(201);
    return (res.body.data as { id: string }).id;
  };
  /** A relayer on `alerting` whose first check read `balance` (POST .../check, after its own first one). */
  const relayer = async (id: string, balance: bigint, extra: object = {}) => {
    const body = relayerBody('evm', {
      id,
      name: id,
      network: 'alerting',
      signer_id: `alert-${nextSigner++}`,
      ...extra,
    });
    const created = (await app().post('/api/v1/relayers', body).expect(201)).body.data as { address: string };
    node.setBalance(created.address, balance);
    await app().post(`/api/v1/relayers/${id}/check`).expect(200);
    return created.address;
  };
  const check = async (id: string, address: string, balance: bigint) => {
    node.setBalance(address, balance);
    await app().post(`/api/v1/relayers/${id}/check`).expect(200);
  };
  const deliveries = async (id: string): Promise<Delivery[]> =>
    (
      (await app().get(`/api/v1/alert-channels/${id}/deliveries?per_page=100`).expect(200)).body
        .data as Delivery[]
    )
      .map(({ event, status, attempts, last_status_code, last_error }) => ({
        event,
        status,
        attempts,
        last_status_code,
        last_error,
      }))
      .reverse();
  const texts = (path: string) => slack.to(path).map((request) => (request.json as { text: string }).text);

  it('Slack: every event written for people, in commit order, each message as Slack documents it', async () => {
    const hook = slackPath(uid('B'));
    const r = uid('pay');
    const id = await channel({ type: 'slack', config: { webhook_url: slack.url(hook) }, relayer_ids: [r] });
    const address = await relayer(r, ETH);
    await app()
      .put(`/api/v1/relayers/${r}/balance-alert`, { threshold: String(ETH / 20n) })
      .expect(200);
    await check(r, address, (ETH * 4n) / 100n);
    await check(r, address, ETH);
    await app()
      .patch(`/api/v1/relayers/${r}`, { name: `${r}-renamed` })
      .expect(200);
    await app().delete(`/api/v1/relayers/${r}`).expect(200);
    // The test message is sent at once, beside the queue (docs/reference/webhooks.md#4-trying-a-target).
    await slack.waitFor(hook, 5);
    const tested = await app().post(`/api/v1/alert-channels/${id}/test`).expect(200);
    expect(tested.body).toEqual(
      successBody({ delivered: true, status_code: 200, error: null, duration_ms: expect.any(Number) }),
    );
    await slack.waitFor(hook, 6);
    expect(texts(hook)).toEqual([
      `${r} on alerting was created`,
      // Slack's text is mrkdwn: &, < and > are escaped, as Slack documents.
      `${r} on alerting is below its alert: 0.04 tETH &lt; 0.05 tETH`,
      `${r} on alerting is no longer below its alert: 1 tETH &gt;= 0.05 tETH`,
      `${r}-renamed on alerting was updated: name`,
      `${r}-renamed on alerting was deleted`,
      `Test message for alert channel ${id}`,
    ]);
    expect(slack.violations()).toEqual([]);
    const [, low] = slack.to(hook);
    expect(low.json).toEqual({
      text: `${r} on alerting is below its alert: 0.04 tETH &lt; 0.05 tETH`,
      blocks: expect.arrayContaining([expect.objectContaining({ type: 'actions' })]),
    });
    expect(JSON.stringify(low.json)).toContain(`${PUBLIC_URL}/console/#/relayers/${r}`);
    expect(await deliveries(id)).toEqual(
      [
        'relayer_created',
        'relayer_low_balance',
        'relayer_balance_restored',
        'relayer_updated',
        'relayer_deleted',
        'notification_test',
      ].map((event) => ({
        event,
        status: 'delivered',
        attempts: 1,
        last_status_code: 200,
        last_error: null,
      })),
    );
  });

  it('PagerDuty: a low balance is one incident, resolved when restored; a disable pages, a re-enable resolves; the test opens and closes one', async () => {
    const r = uid('pd');
    const id = await channel({ type: 'pagerduty', config: { routing_key: ROUTING_KEY }, relayer_ids: [r] });
    const address = await relayer(r, ETH, { policies: { min_balance: 1000 } });
    await app()
      .put(`/api/v1/relayers/${r}/balance-alert`, { threshold: String(ETH / 20n) })
      .expect(200);
    await check(r, address, ETH / 100n);
    // Still low: no second crossing, no second event.
    await check(r, address, ETH / 200n);
    await pagerDuty.waitForIncident(`${r}:low_balance`, 'triggered');
    await check(r, address, ETH);
    await pagerDuty.waitForIncident(`${r}:low_balance`, 'resolved');
    await check(r, address, 10n);
    await pagerDuty.waitForIncident(`${r}:disabled`, 'triggered');
    await check(r, address, ETH);
    await pagerDuty.waitForIncident(`${r}:disabled`, 'resolved');
    await app().post(`/api/v1/alert-channels/${id}/test`).expect(200);
    const link = `${PUBLIC_URL}/console/#/relayers/${r}`;
    const mine = pagerDuty.incidents().filter((incident) => incident.routingKey === ROUTING_KEY);
    expect(
      mine.map(({ dedupKey, status, severity, triggers }) => ({ dedupKey, status, severity, triggers })),
    ).toEqual([
      { dedupKey: `${r}:low_balance`, status: 'resolved', severity: 'warning', triggers: 1 },
      // 10 wei: below min_balance (disabled) and below the alert again (a second crossing).
      { dedupKey: `${r}:disabled`, status: 'resolved', severity: 'critical', triggers: 1 },
      { dedupKey: `${r}:low_balance`, status: 'resolved', severity: 'warning', triggers: 1 },
      {
        dedupKey: expect.stringMatching(new RegExp(`^test:${id}:`)),
        status: 'resolved',
        severity: 'info',
        triggers: 1,
      },
    ]);
    expect(mine[0]).toEqual(
      expect.objectContaining({
        summary: `${r} on alerting is below its alert: 0.01 tETH < 0.05 tETH`,
        links: [{ href: link, text: 'Open in console' }],
      }),
    );
    expect(pagerDuty.violations()).toEqual([]);
    // The relayer's own delivery log is its webhook targets' (docs/reference/webhooks.md#312-the-deliveries-of-one-relayer).
    const ofRelayer = await app().get(`/api/v1/relayers/${r}/deliveries`).expect(200);
    expect(ofRelayer.body.pagination).toEqual({ current_page: 1, per_page: 10, total_items: 0 });
    expect((await deliveries(id)).map((d) => `${d.event}:${d.status}`)).toEqual([
      'relayer_low_balance:delivered',
      'relayer_balance_restored:delivered',
      'relayer_state_update:delivered',
      'relayer_low_balance:delivered',
      'relayer_state_update:delivered',
      'relayer_balance_restored:delivered',
      'notification_test:delivered',
    ]);
  });

  it('e-mail: a text and an HTML part through SMTP with credentials; a temporary refusal is retried, a permanent one fails', async () => {
    const r = uid('mail');
    const id = await channel({
      type: 'email',
      config: { to: ['ops@example.com'] },
      events: ['relayer_low_balance', 'relayer_balance_restored'],
      relayer_ids: [r],
    });
    const address = await relayer(r, ETH);
    await app()
      .put(`/api/v1/relayers/${r}/balance-alert`, { threshold: String(ETH / 20n) })
      .expect(200);
    smtp.refuse({ stage: 'rcpt', code: 451 });
    await check(r, address, ETH / 50n);
    const [mail] = await waitFor('the low balance mail', () => {
      const got = smtp.messages.filter((m) => m.subject?.includes(r));
      return got.length >= 1 && got;
    });
    expect({
      from: mail.from,
      to: mail.to,
      user: mail.user,
      subject: mail.subject,
      violations: mail.violations,
      text: mail.text?.split('\n')[0],
      html: mail.html?.includes(`<a href="${PUBLIC_URL}/console/#/relayers/${r}"`),
    }).toEqual({
      from: 'alerts@relayers.example.com',
      to: ['ops@example.com'],
      user: 'alerts',
      subject: `[relayer] ${r} on alerting is below its alert: 0.02 tETH < 0.05 tETH`,
      violations: [],
      text: `${r} on alerting is below its alert: 0.02 tETH < 0.05 tETH`,
      html: true,
    });
    smtp.refuse({ stage: 'rcpt', code: 550, count: 2 });
    await check(r, address, ETH);
    await waitFor(
      'the restored delivery failed',
      async () => (await deliveries(id)).length === 2 && (await deliveries(id))[1].status === 'failed',
    );
    expect(await deliveries(id)).toEqual([
      {
        event: 'relayer_low_balance',
        status: 'delivered',
        attempts: 2,
        last_status_code: 250,
        last_error: null,
      },
      {
        event: 'relayer_balance_restored',
        status: 'failed',
        attempts: 1,
        last_status_code: 550,
        last_error: expect.stringMatching(/^SMTP 550/) as unknown as string,
      },
    ]);
  });

  it('retries, then pauses itself after failures in a row; resumed, its backlog goes out; replay sends the failed again, in commit order', async () => {
    const hook = slackPath(uid('B'));
    const r = uid('pause');
    const id = await channel({
      type: 'slack',
      config: { webhook_url: slack.url(hook) },
      events: ['relayer_updated'],
      relayer_ids: [r],
    });
    await relayer(r, ETH);
    // Paused by hand while three events are written: the resume sends them in one run, in order.
    await app().post(`/api/v1/alert-channels/${id}/pause`).expect(200);
    for (const name of ['a', 'b', 'c']) await app().patch(`/api/v1/relayers/${r}`, { name }).expect(200);
    slack.script(
      hook,
      Array.from({ length: 6 }, () => ({ status: 500 })),
    );
    await app().post(`/api/v1/alert-channels/${id}/resume`).expect(200);
    // Each first attempt fails; the second failed delivery in a row pauses the channel.
    const paused = await waitFor('the channel paused itself', async () => {
      const state = (await app().get(`/api/v1/alert-channels/${id}/state`).expect(200)).body.data as {
        paused: boolean;
      };
      return state.paused && state;
    });
    expect(paused).toEqual({
      paused: true,
      paused_reason: `${PAUSE_AFTER} deliveries in a row failed; the last: HTTP 500`,
      paused_at: ISO,
      signing_key_overlap_until: null,
    });
    expect((await deliveries(id)).map((d) => `${d.status}:${d.attempts}`).sort()).toEqual([
      'failed:2',
      'failed:2',
      'pending:1',
    ]);
    const records = (
      await app().get(`/api/v1/audit?resource_type=alert_channel&resource_id=${id}`).expect(200)
    ).body.data as Array<{ actor: object; action: string; after: object | null }>;
    const admin = { type: 'admin', id: 'admin', name: 'API_KEY' };
    expect(records.map(({ actor, action }) => ({ actor, action }))).toEqual([
      { actor: SYSTEM, action: 'alert_channel.update' },
      { actor: admin, action: 'alert_channel.update' },
      { actor: admin, action: 'alert_channel.update' },
      { actor: admin, action: 'alert_channel.create' },
    ]);
    // Resumed: the pending one is attempted again (the sixth 500): all three failed, none lost.
    await app().post(`/api/v1/alert-channels/${id}/resume`).expect(200);
    await slack.waitFor(hook, 6);
    await waitFor('the last one failed', async () =>
      (await deliveries(id)).every((d) => d.status === 'failed'),
    );
    const replay = await app().post(`/api/v1/alert-channels/${id}/deliveries/replay`, { status: 'failed' });
    expect({ status: replay.status, body: replay.body }).toEqual({
      status: 202,
      body: successBody({ queued: 3, remaining: 0, skipped: 0 }),
    });
    await slack.waitFor(hook, 9);
    expect(texts(hook).slice(6)).toEqual([
      `a on alerting was updated: name`,
      `b on alerting was updated: name`,
      `c on alerting was updated: name`,
    ]);
    expect(slack.violations()).toEqual([]);
    expect((await deliveries(id)).map((d) => `${d.status}:${d.last_status_code}`)).toEqual([
      'delivered:200',
      'delivered:200',
      'delivered:200',
    ]);
    // One delivery sent again by hand.
    const [first] = (await app().get(`/api/v1/alert-channels/${id}/deliveries?per_page=100`).expect(200)).body
      .data as Array<{ id: string }>;
    const retried = await app().post(`/api/v1/alert-channels/${id}/deliveries/${first.id}/retry`);
    expect({ status: retried.status, delivery: retried.body.data.status }).toEqual({
      status: 202,
      delivery: 'pending',
    });
    await slack.waitFor(hook, 10);
    // The answer reaches the stand-in before the dispatcher writes the delivery: wait for the write.
    await waitFor('the retried delivery written', async () =>
      (await deliveries(id)).every((d) => d.status === 'delivered'),
    );
    const stats = (await app().get(`/api/v1/alert-channels/${id}/stats?window=1h`).expect(200)).body
      .data as Record<string, unknown>;
    expect({
      delivered: stats.delivered,
      failed: stats.failed,
      pending: stats.pending,
      window: stats.window,
    }).toEqual({
      delivered: 3,
      failed: 0,
      pending: 0,
      window: '1h',
    });
  });

  it('a channel that does not answer: the attempt names the error, and nothing secret reaches the log', async () => {
    const r = uid('policy');
    const id = await channel({
      type: 'slack',
      config: { webhook_url: 'http://127.0.0.1:9/services/T/B/x' },
      relayer_ids: [r],
    });
    const tested = await app().post(`/api/v1/alert-channels/${id}/test`).expect(200);
    expect(tested.body.data).toEqual({
      delivered: false,
      status_code: null,
      error: 'network error (ECONNREFUSED)',
      duration_ms: expect.any(Number),
    });
    expect(secrets.foundIn(app().logText())).toEqual([]);
  });
});
