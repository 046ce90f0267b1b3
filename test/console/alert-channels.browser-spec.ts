import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { createKey } from '../factories';
import {
  documentWidth,
  factsOf,
  noneShowing,
  PHONE,
  screenshot,
  seriousViolations,
  settledTo,
  tableCells,
  useConsole,
  type ConsoleTab,
} from '../support/browser';
import { expectError } from '../support/envelope';
import { secrets } from '../support/secrets';
import { useTestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

interface Delivery {
  id: string;
  event: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
}

/** The channel's own facts (its page's first list), or a panel's. */
const facts = (page: Page, panel?: string) =>
  factsOf(
    panel === undefined
      ? page.locator('main > dl.facts')
      : page.getByRole('region', { name: panel, exact: true }).locator('dl.facts'),
  );

describe('the operator console: alert channels', () => {
  // A stand-in for Slack's incoming webhooks on loopback; the last segment of their path is the secret.
  const slack = new WebhookReceiver();
  const SECRET = secrets.add(`slack${randomBytes(12).toString('hex')}`);
  const handle = useTestApp({ WEBHOOK_RETRY_BASE_MS: '40', WEBHOOK_TIMEOUT_MS: '30000' });
  const app = () => handle.current;
  const { open } = useConsole(app);
  const hookPath = (id: string) => `/services/T1/${id}/${SECRET}`;
  /** The URL as the API answers it: its last segment masked. */
  const masked = (id: string) => slack.url(`/services/T1/${id}/***`);
  /** A Slack channel made through the API, hearing every event of every relayer. */
  const channel = async (id: string) => {
    await app()
      .post('/api/v1/alert-channels', { id, type: 'slack', config: { webhook_url: slack.url(hookPath(id)) } })
      .expect(201);
  };
  /** The channel's log, newest first, once nothing is pending (deadline 15 s). */
  const settled = (id: string): Promise<Delivery[]> =>
    waitFor(
      `the deliveries of ${id} to settle`,
      async () => {
        const log = (await app().get(`/api/v1/alert-channels/${id}/deliveries?per_page=100`).expect(200)).body
          .data as Delivery[];
        return log.length > 0 && log.every((d) => d.status !== 'pending') && log;
      },
      { timeoutMs: 15_000, intervalMs: 25 },
    );
  /** The channel's page, its facts and its state read. */
  const channelPage = async (id: string, viewport?: typeof PHONE): Promise<ConsoleTab> => {
    const tab = await open(app().apiKey, `#/alert-channels/${id}`, viewport);
    await tab.page.getByRole('region', { name: 'State' }).locator('dl.facts').waitFor();
    return tab;
  };
  /** The secret is in no text or attribute of the page. */
  const secretShown = (tab: ConsoleTab) => tab.page.content().then((html) => html.includes(SECRET));

  beforeAll(async () => {
    await slack.start();
  });
  afterAll(async () => {
    await slack.close();
  });

  it('is in the menu beside Notifications, and says how to add a channel while there is none', async () => {
    const tab = await open(app().apiKey, '#/alert-channels');
    expect(
      await tab.page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents(),
    ).toEqual([
      'Relayers',
      'Notifications',
      'Alert channels',
      'Signers',
      'Networks',
      'API keys',
      'Audit',
      'Configuration',
    ]);
    await expect(tab.page.locator('main .state.empty').textContent()).resolves.toBe(
      'No alert channels yet. Add one with POST /api/v1/alert-channels (docs/reference/alert-channels.md): a Slack webhook URL, a PagerDuty routing key or e-mail recipients, hearing every relayer or some.',
    );
    expect(await seriousViolations(tab.page)).toEqual([]);
    // The notifications page points to it.
    const targets = await open(app().apiKey, '#/notifications');
    expect(
      await targets.page
        .locator('main .page-intro')
        .getByRole('link', { name: 'Alert channels' })
        .getAttribute('href'),
    ).toBe('#/alert-channels');
  });

  it('creates a Slack channel from the form; the API, its page and the list show its URL masked', async () => {
    const tab = await open(app().apiKey, '#/alert-channels');
    await tab.page.getByText('Create an alert channel').click();
    const form = tab.page.getByRole('form', { name: 'Create an alert channel' });
    await form.getByLabel('Id (optional)').fill('ops-slack');
    expect(await form.getByLabel('Type').inputValue()).toBe('slack');
    await form.getByLabel('Slack webhook URL').fill(slack.url(hookPath('ops-slack')));
    await form.getByLabel('Only these').check();
    await form.getByLabel('relayer_low_balance').check();
    await form.getByLabel('relayer_state_update').check();
    await form.getByRole('button', { name: 'Create channel' }).click();
    await tab.page.getByRole('heading', { level: 1, name: 'Alert channel ops-slack' }).waitFor();

    // Events in the catalogue's order; every relayer is answered null.
    expect((await app().get('/api/v1/alert-channels/ops-slack').expect(200)).body.data).toEqual({
      id: 'ops-slack',
      type: 'slack',
      config: { webhook_url: masked('ops-slack') },
      events: ['relayer_state_update', 'relayer_low_balance'],
      relayer_ids: null,
    });
    await tab.page.locator('main > dl.facts').waitFor();
    expect(await facts(tab.page)).toEqual([
      ['Id', 'ops-slack'],
      ['Type', 'Slack'],
      ['Slack webhook URL', `${masked('ops-slack')} (its secret part never shown)`],
      ['Events', 'relayer_state_update, relayer_low_balance'],
      ['Relayers', 'Every relayer'],
    ]);
    expect(await secretShown(tab)).toBe(false);
    await tab.page.getByRole('region', { name: 'State' }).locator('dl.facts').waitFor();
    expect(await seriousViolations(tab.page)).toEqual([]);

    await tab.page.getByRole('link', { name: 'All alert channels' }).click();
    await tab.page.getByRole('table', { name: 'Alert channels' }).waitFor();
    await noneShowing(tab.page, 'Loading state and stats…');
    expect(await tableCells(tab.page, 'Alert channels')).toEqual([
      [
        'ops-slack',
        'Slack',
        masked('ops-slack'),
        'relayer_state_update, relayer_low_balance',
        'Every relayer',
        'Running',
        '0',
        '0',
        '0',
        'none',
        'none',
      ],
    ]);
    expect(await secretShown(tab)).toBe(false);
    expect(await seriousViolations(tab.page)).toEqual([]);
    await screenshot(tab.page, 'alert-channels');
  });

  it("puts the API's refusal beside the field it names, and creates nothing", async () => {
    const tab = await open(app().apiKey, '#/alert-channels');
    await tab.page.getByText('Create an alert channel').click();
    const form = tab.page.getByRole('form', { name: 'Create an alert channel' });
    await form.getByLabel('Id (optional)').fill('ops-pager');
    await form.getByLabel('Type').selectOption('pagerduty');
    // Only the events that open or resolve an incident are offered.
    await form.getByLabel('Only these').check();
    expect(
      await form
        .locator('input[type=checkbox]')
        .evaluateAll((els) => els.map((el) => el.parentElement?.textContent)),
    ).toEqual(['relayer_state_update', 'relayer_low_balance', 'relayer_balance_restored']);
    await form.getByLabel('Routing key').fill('too-short');
    await form.getByRole('button', { name: 'Create channel' }).click();
    await form.locator('#new-channel-routing-key-error').waitFor();
    await expect(form.locator('#new-channel-routing-key-error').textContent()).resolves.toBe(
      'config.routing_key must be an integration key of 32 letters and digits',
    );
    expect(await form.getByLabel('Routing key').getAttribute('aria-invalid')).toBe('true');
    await expect(form.getByRole('alert').textContent()).resolves.toBe(
      'Nothing changed: the API refused what is said beside the fields.',
    );
    expectError(await app().get('/api/v1/alert-channels/ops-pager'), 404, 'Alert channel not found');
  });

  it('sends a test and shows it delivered; the delivery is in the log, and a retry sends it again', async () => {
    await channel('tested');
    const tab = await channelPage('tested');
    await tab.page.getByRole('button', { name: 'Send a test' }).click();
    const ok = tab.page.getByRole('status').filter({ hasText: 'Test delivered' });
    await expect(ok.textContent()).resolves.toMatch(/^Test delivered: HTTP 200 in \d+ ms\.$/);
    // Slack received one message with blocks.
    const [message] = await slack.waitFor(hookPath('tested'), 1);
    expect(Array.isArray((message.json as unknown as { blocks: unknown }).blocks)).toBe(true);

    const [test] = await settled('tested');
    expect([test.event, test.status, test.attempts, test.last_status_code]).toEqual([
      'notification_test',
      'delivered',
      1,
      200,
    ]);
    // The log is read again after the test.
    await tab.page.getByRole('table', { name: 'Deliveries' }).waitFor();
    expect(await tableCells(tab.page, 'Deliveries')).toEqual([
      [
        `notification_test${test.id}`,
        'none',
        'Delivered',
        '1',
        '200',
        'none',
        expect.any(String),
        expect.any(String),
        `Retry delivery ${test.id}`,
      ],
    ]);
    await screenshot(tab.page, 'alert-channel');
    await tab.page.getByRole('button', { name: `Retry delivery ${test.id}` }).click();
    await tab.page.getByText(`Delivery ${test.id} queued again.`).waitFor();
    await slack.waitFor(hookPath('tested'), 2);
    expect((await settled('tested')).map((d) => [d.id, d.status, d.attempts])).toEqual([
      [test.id, 'delivered', 2],
    ]);
    await tab.page.getByRole('button', { name: 'Refresh' }).click();
    await expect(
      settledTo(async () => (await tableCells(tab.page, 'Deliveries'))[0]?.[3], '2'),
    ).resolves.toBe('2');
    expect(await seriousViolations(tab.page)).toEqual([]);
  });

  it('pauses once confirmed and resumes, as the API then answers; no signing key is spoken of', async () => {
    await channel('paused');
    const tab = await channelPage('paused');
    expect(await facts(tab.page, 'State')).toEqual([
      ['State', 'Running'],
      ['Reason', 'none'],
      ['Since', 'never'],
    ]);
    await tab.page.getByRole('button', { name: 'Pause', exact: true }).click();
    const dialog = tab.page.getByRole('alertdialog');
    await expect(dialog.getByRole('heading').textContent()).resolves.toBe('Pause channel paused?');
    await expect(dialog.locator('.effect').textContent()).resolves.toBe(
      `Nothing is sent to ${masked('paused')} until it is resumed. The events of the relayers it hears wait, pending, and are sent in order on resume; Send a test still sends.`,
    );
    expect(await seriousViolations(tab.page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Pause paused' }).click();
    await tab.page.getByText('Paused: deliveries wait until it is resumed.').waitFor();
    const state = (await app().get('/api/v1/alert-channels/paused/state').expect(200)).body.data as {
      paused: boolean;
      paused_reason: string;
      paused_at: string;
    };
    expect([state.paused, state.paused_reason]).toEqual([true, 'paused by hand']);
    expect(await facts(tab.page, 'State')).toEqual([
      ['State', 'Paused Failing'],
      ['Reason', 'paused by hand'],
      ['Since', expect.any(String)],
    ]);
    expect(
      await tab.page.getByRole('region', { name: 'State' }).locator('time').getAttribute('datetime'),
    ).toBe(state.paused_at);

    await tab.page.getByRole('button', { name: 'Resume' }).click();
    await tab.page.getByText('Resumed: waiting deliveries are sent in order.').waitFor();
    expect((await app().get('/api/v1/alert-channels/paused/state').expect(200)).body.data).toEqual({
      paused: false,
      paused_reason: null,
      paused_at: null,
      signing_key_overlap_until: null,
    });
    expect(await tab.page.getByRole('button', { name: 'Pause', exact: true }).count()).toBe(1);
  });

  it('edits what a channel hears; its URL left masked is kept, and the next test reaches it', async () => {
    await channel('edited');
    const tab = await channelPage('edited');
    await tab.page.getByRole('button', { name: 'Edit' }).click();
    const form = tab.page.getByRole('form', { name: 'Edit channel edited' });
    expect(await form.getByLabel('Slack webhook URL').inputValue()).toBe(masked('edited'));
    await expect(form.locator('#channel-webhook-url-help').textContent()).resolves.toBe(
      'Left as shown, masked with ***, the URL stored behind it is kept, unchanged: the console sends the masked text back. To change it, replace all of it.',
    );
    await form.getByLabel('These relayers').check();
    await form.getByLabel('Relayer ids, one per line').fill('r-1\nr-2');
    await form.getByRole('button', { name: 'Save' }).click();
    await tab.page.getByText('Saved.').waitFor();
    expect((await app().get('/api/v1/alert-channels/edited').expect(200)).body.data).toEqual({
      id: 'edited',
      type: 'slack',
      config: { webhook_url: masked('edited') },
      events: null,
      relayer_ids: ['r-1', 'r-2'],
    });
    await tab.page.getByRole('button', { name: 'Send a test' }).click();
    await tab.page.getByRole('status').filter({ hasText: 'Test delivered' }).waitFor();
    expect((await slack.waitFor(hookPath('edited'), 1)).length).toBe(1);

    // A masked URL edited is refused beside the field; nothing changes.
    await tab.page.getByRole('button', { name: 'Edit' }).click();
    await form.getByLabel('Slack webhook URL').fill(slack.url('/services/T1/other/***'));
    await form.getByRole('button', { name: 'Save' }).click();
    await form.locator('#channel-webhook-url-error').waitFor();
    await expect(form.locator('#channel-webhook-url-error').textContent()).resolves.toBe(
      'config.webhook_url is masked but stands for no stored URL',
    );
    expect(
      ((await app().get('/api/v1/alert-channels/edited').expect(200)).body.data as { config: object }).config,
    ).toEqual({ webhook_url: masked('edited') });
    expect(await secretShown(tab)).toBe(false);
    expect(await seriousViolations(tab.page)).toEqual([]);
  });

  it('deletes a channel once confirmed, with its log', async () => {
    await channel('gone');
    await app().post('/api/v1/alert-channels/gone/test').expect(200);
    const tab = await channelPage('gone');
    await tab.page.getByRole('button', { name: 'Delete' }).click();
    const dialog = tab.page.getByRole('alertdialog');
    await expect(dialog.getByRole('heading').textContent()).resolves.toBe('Delete channel gone?');
    await expect(dialog.locator('.effect').textContent()).resolves.toBe(
      `Nothing more is sent to ${masked('gone')}. Its delivery log is deleted with it, and its pending deliveries are never sent. This cannot be undone.`,
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await app().get('/api/v1/alert-channels/gone').expect(200);
    await tab.page.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete gone' }).click();
    await expect(
      settledTo(() => tab.page.evaluate<string>('window.location.hash'), '#/alert-channels'),
    ).resolves.toBe('#/alert-channels');
    expectError(await app().get('/api/v1/alert-channels/gone'), 404, 'Alert channel not found');
    expectError(await app().get('/api/v1/alert-channels/gone/deliveries'), 404, 'Alert channel not found');
  });

  it('offers a read-only key no control, and fits a 390 px wide screen', async () => {
    await channel('shown');
    const reader = await open(
      (await createKey(app(), { permissions: ['notifications:read', 'relayers:read'] })).key,
      '#/alert-channels/shown',
    );
    await reader.page.getByRole('region', { name: 'State' }).locator('dl.facts').waitFor();
    await reader.page.getByRole('region', { name: 'Deliveries' }).locator('.state').waitFor();
    for (const name of ['Edit', 'Delete', 'Pause', 'Resume', 'Send a test', 'Replay'])
      expect(await reader.page.getByRole('button', { name, exact: true }).count()).toBe(0);
    const list = await open(
      (await createKey(app(), { permissions: ['notifications:read'] })).key,
      '#/alert-channels',
    );
    await list.page.getByRole('table', { name: 'Alert channels' }).waitFor();
    expect(await list.page.getByText('Create an alert channel').count()).toBe(0);

    const phone = await open(app().apiKey, '#/alert-channels', PHONE);
    await phone.page.getByRole('table', { name: 'Alert channels' }).waitFor();
    await noneShowing(phone.page, 'Loading state and stats…');
    expect(await documentWidth(phone.page)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(phone.page)).toEqual([]);
    await screenshot(phone.page, 'alert-channels');
    const one = await channelPage('shown', PHONE);
    await one.page.getByRole('region', { name: 'Stats' }).locator('dl.facts').waitFor();
    expect(await documentWidth(one.page)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(one.page)).toEqual([]);
    await screenshot(one.page, 'alert-channel');
  });
});
