import { createKey, relayerBody } from '../factories';
import {
  distinct,
  documentWidth,
  factsOf,
  noneShowing,
  PHONE,
  screenshot,
  seriousViolations,
  tableCells,
  useConsole,
  type ConsoleTab,
} from '../support/browser';
import { secrets } from '../support/secrets';
import { useTestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

interface Delivery {
  id: string;
  event: string;
  relayer_id: string | null;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

interface Stats {
  delivered: number;
  failed: number;
  pending: number;
  success_rate: number | null;
  latency_ms: { p50: number | null; p95: number | null; max: number | null };
}

describe('the operator console: notification targets and their deliveries', () => {
  const receiver = new WebhookReceiver();
  const handle = useTestApp({ WEBHOOK_RETRY_BASE_MS: '40', WEBHOOK_TIMEOUT_MS: '30000' });
  const app = () => handle.current;
  const { open } = useConsole(app);
  const target = async (id: string, path: string, fields: object = {}) => {
    await app()
      .post('/api/v1/notifications', { id, url: receiver.url(path), ...fields })
      .expect(201);
  };
  const relayer = async (id: string, notificationId: string) => {
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id, name: id, notification_id: notificationId }))
      .expect(201);
  };
  /** The log, newest first, once nothing is pending (deadline 15 s). */
  const settled = async (notificationId: string): Promise<Delivery[]> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const log = (
        await app().get(`/api/v1/notifications/${notificationId}/deliveries?per_page=100`).expect(200)
      ).body.data as Delivery[];
      if (log.length > 0 && log.every((d) => d.status !== 'pending')) return log;
      if (Date.now() > deadline) throw new Error(`deliveries still pending: ${JSON.stringify(log)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const stats = async (notificationId: string, window = '24h'): Promise<Stats> =>
    (await app().get(`/api/v1/notifications/${notificationId}/stats?window=${window}`).expect(200)).body
      .data as Stats;
  const cells = (tab: ConsoleTab, table: string) => tableCells(tab.page, table);
  const facts = (tab: ConsoleTab, section: string) =>
    factsOf(tab.page.getByRole('region', { name: section, exact: true }).locator('dl.facts'));

  beforeAll(async () => {
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('says how to add a target while there is none', async () => {
    const tab = await open(app().apiKey, '#/notifications');
    await expect(tab.page.locator('main .state.empty').textContent()).resolves.toBe(
      "No notification targets yet. Add one with POST /api/v1/notifications (docs/reference/notifications.md), then name it in a relayer's notification_id or subscribe it to relayers.",
    );
    expect(await seriousViolations(tab.page)).toEqual([]);
  });

  describe('with targets and deliveries', () => {
    const SIGNING_KEY = secrets.add('a-signing-key-of-at-least-32-characters-0123');
    beforeAll(async () => {
      // hook-a: signed, one delivery delivered. hook-b: one failed (410 is not retried), paused by hand.
      await target('hook-a', '/a', { signing_key: SIGNING_KEY });
      await target('hook-b', '/b');
      receiver.script('/b', [{ status: 410 }]);
      await relayer('r-a', 'hook-a');
      await relayer('r-b', 'hook-b');
      await settled('hook-a');
      await settled('hook-b');
      await app().post('/api/v1/notifications/hook-b/pause').expect(200);
    });

    it('lists each target with its URL, signing key, state and 24h stats from the API', async () => {
      const tab = await open(app().apiKey, '#/notifications');
      await tab.page.getByRole('table', { name: 'Notification targets' }).waitFor();
      await noneShowing(tab.page, 'Loading state and stats…');
      const p95 = (await stats('hook-a')).latency_ms.p95;
      expect(await cells(tab, 'Notification targets')).toEqual([
        ['hook-a', receiver.url('/a'), 'Yes', 'Running', '1', '0', '0', '100 %', `${p95} ms`],
        // Paused: failing, whatever its rate (docs/console.md#3-the-pages).
        ['hook-b', receiver.url('/b'), 'No', 'Paused Failingpaused by hand', '0', '1', '0', '0 %', 'none'],
      ]);
      expect(await stats('hook-b')).toMatchObject({ delivered: 0, failed: 1, pending: 0, success_rate: 0 });
      expect(await seriousViolations(tab.page)).toEqual([]);
      await screenshot(tab.page, 'notifications');
    });

    it("shows a target's state, stats by window, subscription and deliveries as the API holds them", async () => {
      await app()
        .put('/api/v1/notifications/hook-a/subscription', {
          events: ['relayer_updated', 'relayer_created'],
          relayer_ids: ['r-b'],
        })
        .expect(200);
      const tab = await open(app().apiKey, '#/notifications/hook-a');
      await tab.page.getByRole('table', { name: 'Deliveries' }).waitFor();
      expect(await facts(tab, 'State')).toEqual([
        ['State', 'Running'],
        ['Reason', 'none'],
        ['Since', 'never'],
        ['Previous signing key signs until', 'no overlap'],
      ]);
      const day = await stats('hook-a');
      const latency = (ms: number | null) => (ms === null ? 'none' : `${ms} ms`);
      const [delivery] = await settled('hook-a');
      expect(await facts(tab, 'Stats')).toEqual([
        ['Delivered', '1'],
        ['Failed', '0'],
        ['Retried', '0'],
        ['Pending now', '0'],
        ['Success rate', '100 %'],
        [
          'Latency p50 / p95 / max',
          `${latency(day.latency_ms.p50)} / ${latency(day.latency_ms.p95)} / ${latency(day.latency_ms.max)}`,
        ],
        ['Last delivered', expect.any(String)],
        ['Last failed', 'never'],
        ['Last error', 'none'],
      ]);
      expect(
        await tab.page
          .getByRole('region', { name: 'Stats', exact: true })
          .locator('time')
          .evaluateAll((els) => els.map((el) => el.getAttribute('datetime'))),
      ).toEqual([(day as unknown as { last_delivered_at: string }).last_delivered_at]);
      expect(await facts(tab, 'Subscription')).toEqual([
        ['Events', 'relayer_created, relayer_updated (notification_test is always sent)'],
        ['Relayers', 'r-b'],
      ]);
      expect(
        await tab.page.getByRole('region', { name: 'Subscription' }).getByRole('link').getAttribute('href'),
      ).toBe('#/relayers/r-b');
      expect(await cells(tab, 'Deliveries')).toEqual([
        [
          `relayer_created${delivery.id}`,
          'r-a',
          'Delivered',
          '1',
          '200',
          'none',
          expect.any(String),
          expect.any(String),
          `Retry delivery ${delivery.id}`,
        ],
      ]);
      const times = await tab.page
        .getByRole('table', { name: 'Deliveries' })
        .locator('time')
        .evaluateAll((els) => els.map((el) => el.getAttribute('datetime')));
      expect(times).toEqual([delivery.created_at, delivery.delivered_at]);
      expect(
        await tab.page
          .getByRole('table', { name: 'Deliveries' })
          .getByRole('link', { name: 'r-a' })
          .getAttribute('href'),
      ).toBe('#/relayers/r-a');

      // The window switch asks the API for 1h, then 7d.
      await tab.page.getByRole('button', { name: 'Last 7d' }).click();
      await tab.page.getByRole('button', { name: 'Last 7d', pressed: true }).waitFor();
      await tab.page.getByRole('region', { name: 'Stats' }).locator('dl.facts').waitFor();
      // With the last hour's, which says whether the running target is failing (asked as the state loads).
      expect(distinct(tab.requests.filter((url) => url.includes('/stats?'))).sort()).toEqual([
        `${app().baseUrl}/api/v1/notifications/hook-a/stats?window=1h`,
        `${app().baseUrl}/api/v1/notifications/hook-a/stats?window=24h`,
        `${app().baseUrl}/api/v1/notifications/hook-a/stats?window=7d`,
      ]);
      expect(await seriousViolations(tab.page)).toEqual([]);
      await screenshot(tab.page, 'notification');
    });

    it('pauses and resumes a target, as the API then answers', async () => {
      const tab = await open(app().apiKey, '#/notifications/hook-a');
      await tab.page.getByRole('button', { name: 'Pause', exact: true }).click();
      // Asked first (test/console/confirmations.browser-spec.ts says what).
      await tab.page.getByRole('alertdialog').getByRole('button', { name: 'Pause hook-a' }).click();
      await tab.page.getByText('Paused: deliveries wait until it is resumed.').waitFor();
      const paused = (await app().get('/api/v1/notifications/hook-a/state').expect(200)).body.data as object;
      expect(paused).toMatchObject({ paused: true, paused_reason: 'paused by hand' });
      expect(await facts(tab, 'State')).toEqual([
        ['State', 'Paused Failing'],
        ['Reason', 'paused by hand'],
        ['Since', expect.any(String)],
        ['Previous signing key signs until', 'no overlap'],
      ]);
      expect(
        await tab.page.getByRole('region', { name: 'State' }).locator('time').getAttribute('datetime'),
      ).toBe((paused as { paused_at: string }).paused_at);

      await tab.page.getByRole('button', { name: 'Resume' }).click();
      await tab.page.getByText('Resumed: waiting deliveries are sent in order.').waitFor();
      expect((await app().get('/api/v1/notifications/hook-a/state').expect(200)).body.data).toEqual({
        paused: false,
        paused_reason: null,
        paused_at: null,
        signing_key_overlap_until: null,
      });
      expect(await tab.page.getByRole('button', { name: 'Pause', exact: true }).count()).toBe(1);
    });

    it('sends a test event and shows what the API answered, failed or delivered', async () => {
      receiver.script('/a', [{ status: 503 }]);
      const tab = await open(app().apiKey, '#/notifications/hook-a');
      await tab.page.getByRole('button', { name: 'Send a test' }).click();
      const failed = tab.page.getByRole('alert').filter({ hasText: 'Test not delivered' });
      await expect(failed.textContent()).resolves.toMatch(/^Test not delivered: HTTP 503 after \d+ ms\.$/);
      await tab.page.getByRole('button', { name: 'Send a test' }).click();
      const ok = tab.page.getByRole('status').filter({ hasText: 'Test delivered' });
      await expect(ok.textContent()).resolves.toMatch(/^Test delivered: HTTP 200 in \d+ ms\.$/);
      const log = await settled('hook-a');
      expect(log.slice(0, 2).map((d) => [d.event, d.status, d.last_status_code])).toEqual([
        ['notification_test', 'delivered', 200],
        ['notification_test', 'failed', 503],
      ]);
      expect(
        receiver
          .to('/a')
          .slice(-2)
          .map((r) => r.json.event),
      ).toEqual(['notification_test', 'notification_test']);
    });

    it('retries a failed delivery and replays failed ones; the API shows them delivered', async () => {
      const tab = await open(app().apiKey, '#/notifications/hook-b?status=failed');
      await tab.page.getByRole('table', { name: 'Deliveries (failed)' }).waitFor();
      const [failed] = await settled('hook-b');
      expect(await cells(tab, 'Deliveries (failed)')).toEqual([
        [
          `relayer_created${failed.id}`,
          'r-b',
          'Failed',
          '1',
          '410',
          'HTTP 410',
          expect.any(String),
          expect.any(String),
          `Retry delivery ${failed.id}`,
        ],
      ]);
      // Resume, then retry: the receiver now answers 200.
      await tab.page.getByRole('button', { name: 'Resume' }).click();
      await tab.page.getByText('Resumed: waiting deliveries are sent in order.').waitFor();
      await tab.page.getByRole('button', { name: `Retry delivery ${failed.id}` }).click();
      await tab.page.getByText(`Delivery ${failed.id} queued again.`).waitFor();
      expect((await settled('hook-b')).map((d) => [d.id, d.status, d.attempts, d.last_status_code])).toEqual([
        [failed.id, 'delivered', 2, 200],
      ]);

      // Two more fail; a replay of the failed ones queues exactly those two.
      receiver.script('/b', [{ status: 404 }, { status: 404 }]);
      await app().patch('/api/v1/relayers/r-b', { name: 'r-b renamed' }).expect(200);
      await app().patch('/api/v1/relayers/r-b', { name: 'r-b again' }).expect(200);
      const before = await settled('hook-b');
      expect(before.map((d) => d.status)).toEqual(['failed', 'failed', 'delivered']);
      await tab.page.getByRole('button', { name: 'Refresh' }).click();
      await tab.page.getByRole('table', { name: 'Deliveries (failed)' }).locator('tbody tr').nth(1).waitFor();
      expect(
        await tab.page.getByRole('table', { name: 'Deliveries (failed)' }).locator('tbody tr').count(),
      ).toBe(2);
      await tab.page.getByLabel('Replay status').selectOption('failed');
      await tab.page.getByRole('button', { name: 'Replay', exact: true }).click();
      // Asked first, with the count (test/console/confirmations.browser-spec.ts says the rest).
      await expect(tab.page.getByRole('alertdialog').getByRole('heading').textContent()).resolves.toBe(
        `Queue 2 deliveries to ${receiver.url('/b')}?`,
      );
      await tab.page.getByRole('button', { name: 'Queue 2 deliveries' }).click();
      await tab.page.getByText('Replay: 2 queued again, 0 left for another call.').waitFor();
      expect((await settled('hook-b')).map((d) => [d.id, d.status, d.attempts])).toEqual(
        before.map((d) => [d.id, 'delivered', d.attempts + (d.status === 'failed' ? 1 : 0)]),
      );
      // The API's refusal is shown beside the field it names.
      await tab.page.getByLabel('Replay status').selectOption('delivered');
      await tab.page.getByLabel('Created since').fill('2026-01-02T00:00');
      await tab.page.getByLabel('Created before').fill('2026-01-01T00:00');
      await tab.page.getByRole('button', { name: 'Replay', exact: true }).click();
      await tab.page.getByRole('button', { name: 'Queue at most 3 deliveries' }).click();
      const refused = await app()
        .post('/api/v1/notifications/hook-b/deliveries/replay', {
          status: 'delivered',
          since: '2026-01-02T00:00:00.000Z',
          until: '2026-01-01T00:00:00.000Z',
        })
        .expect(400);
      const message = (refused.body as { message: string }).message;
      expect(message).toMatch(/^until /);
      const form = tab.page.getByRole('form', { name: 'Replay deliveries' });
      await form.locator('#replay-until-error').waitFor();
      await expect(form.locator('#replay-until-error').textContent()).resolves.toBe(message);
      await expect(form.getByRole('alert').textContent()).resolves.toBe(
        'Nothing changed: the API refused what is said beside the fields.',
      );
    });

    it('offers no control a key may not use: read only, and write without relayers:read', async () => {
      const reader = await open(
        (await createKey(app(), { permissions: ['notifications:read', 'relayers:read'] })).key,
        '#/notifications/hook-a',
      );
      await reader.page.getByRole('table', { name: 'Deliveries' }).waitFor();
      await reader.page.getByRole('region', { name: 'State' }).locator('dl.facts').waitFor();
      for (const name of ['Pause', 'Resume', 'Send a test', 'Replay'])
        expect(await reader.page.getByRole('button', { name, exact: true }).count()).toBe(0);
      expect(await reader.page.getByRole('button', { name: /^Retry delivery/ }).count()).toBe(0);
      expect(await reader.page.getByRole('form', { name: 'Replay deliveries' }).count()).toBe(0);

      const writer = await open(
        (await createKey(app(), { permissions: ['notifications:read', 'notifications:write'] })).key,
        '#/notifications/hook-a',
      );
      await writer.page.getByRole('table', { name: 'Deliveries' }).waitFor();
      await writer.page.getByRole('region', { name: 'State' }).locator('dl.facts').waitFor();
      expect(await writer.page.getByRole('button', { name: 'Pause', exact: true }).count()).toBe(1);
      expect(await writer.page.getByRole('button', { name: 'Send a test', exact: true }).count()).toBe(1);
      // Retry and replay need relayers:read too; relayer ids are not links without it.
      expect(await writer.page.getByRole('button', { name: /^Retry delivery/ }).count()).toBe(0);
      expect(await writer.page.getByRole('form', { name: 'Replay deliveries' }).count()).toBe(0);
      expect(await writer.page.locator('main a[href^="#/relayers"]').count()).toBe(0);
    });

    it('never shows a scoped key a delivery about a relayer outside its scope', async () => {
      await app().patch('/api/v1/relayers/r-b', { notification_id: 'hook-a' }).expect(200);
      await settled('hook-a');
      const all = (await app().get('/api/v1/notifications/hook-a/deliveries?per_page=100').expect(200)).body
        .data as Delivery[];
      expect(all.some((d) => d.relayer_id === 'r-b')).toBe(true);
      const key = (
        await createKey(app(), {
          permissions: ['notifications:read', 'relayers:read'],
          // The target too: relayer_ids cover targets (docs/reference/keys-and-audit.md#36-signers-and-notification-targets).
          relayer_ids: ['r-a', 'hook-a'],
        })
      ).key;
      const tab = await open(key, '#/notifications/hook-a');
      await tab.page.getByRole('table', { name: 'Deliveries' }).waitFor();
      const rows = await cells(tab, 'Deliveries');
      expect(rows.map((row) => row[1])).toEqual(['r-a']);
      await tab.page.getByRole('region', { name: 'Subscription' }).locator('dl.facts').waitFor();
      expect(await tab.page.locator('main').textContent()).not.toContain('r-b');
    });

    it('pages the delivery log through the API, 25 at a time, newest first', async () => {
      await target('hook-c', '/c');
      await relayer('r-c', 'hook-c');
      for (let i = 1; i <= 25; i++)
        await app()
          .patch('/api/v1/relayers/r-c', { name: `r-c ${i}` })
          .expect(200);
      const log = await settled('hook-c');
      expect(log.length).toBe(26);
      const tab = await open(app().apiKey, '#/notifications/hook-c');
      const pager = tab.page.getByRole('navigation', { name: 'Deliveries pages' });
      // By cursor (docs/reference/pagination.md#17-cursors): Older, then Newest back.
      await expect(pager.locator('span').textContent()).resolves.toBe('Older ones follow');
      expect((await cells(tab, 'Deliveries')).map((row) => row[0])).toEqual(
        log.slice(0, 25).map((d) => `${d.event}${d.id}`),
      );
      await pager.getByRole('button', { name: 'Older' }).click();
      await pager.getByText('The oldest shown').waitFor();
      expect((await cells(tab, 'Deliveries')).map((row) => row[0])).toEqual([`relayer_created${log[25].id}`]);
      const { next_cursor: cursor } = (
        await app().get('/api/v1/notifications/hook-c/deliveries?limit=25').expect(200)
      ).body.pagination as { next_cursor: string };
      await pager.getByRole('button', { name: 'Newest' }).click();
      await pager.getByText('Older ones follow').waitFor();
      expect(distinct(tab.requests.filter((url) => url.includes('/deliveries?')))).toEqual([
        `${app().baseUrl}/api/v1/notifications/hook-c/deliveries?limit=25`,
        `${app().baseUrl}/api/v1/notifications/hook-c/deliveries?limit=25&cursor=${cursor}`,
      ]);
    });

    it("says a paused target's pending deliveries wait for its resume, not when they were due", async () => {
      await target('hook-d', '/d');
      await app().post('/api/v1/notifications/hook-d/pause').expect(200);
      await relayer('r-d', 'hook-d');
      const [pending] = (await app().get('/api/v1/notifications/hook-d/deliveries').expect(200)).body
        .data as (Delivery & { next_attempt_at: string })[];
      expect([pending.status, pending.attempts, Date.parse(pending.next_attempt_at) <= Date.now()]).toEqual([
        'pending',
        0,
        true,
      ]);
      const tab = await open(app().apiKey, '#/notifications/hook-d');
      await tab.page.getByRole('table', { name: 'Deliveries' }).waitFor();
      await tab.page.getByRole('region', { name: 'State' }).locator('dl.facts').waitFor();
      expect(await cells(tab, 'Deliveries')).toEqual([
        [
          `relayer_created${pending.id}`,
          'r-d',
          'Pending',
          '0',
          'none',
          'none',
          expect.any(String),
          'waits for resume',
          '',
        ],
      ]);
      expect(await seriousViolations(tab.page)).toEqual([]);
    });

    it('marks a running target failing under 90 % delivered in the last hour, in the list and on its page', async () => {
      // hook-e: running, its one delivery of the hour failed (0 %). hook-f: running, none in the hour.
      await target('hook-e', '/e');
      await target('hook-f', '/f');
      receiver.script('/e', [{ status: 410 }]);
      await relayer('r-e', 'hook-e');
      await settled('hook-e');
      expect(await stats('hook-e', '1h')).toMatchObject({ delivered: 0, failed: 1, success_rate: 0 });
      expect(await stats('hook-f', '1h')).toMatchObject({ delivered: 0, failed: 0, success_rate: null });

      const list = await open(app().apiKey, '#/notifications');
      await list.page.getByRole('table', { name: 'Notification targets' }).waitFor();
      await noneShowing(list.page, 'Loading state and stats…');
      const rows = await cells(list, 'Notification targets');
      expect(rows.filter((row) => ['hook-e', 'hook-f'].includes(row[0])).map((row) => row[3])).toEqual([
        'Failing0 % delivered in the last hour',
        'Running',
      ]);
      expect(await seriousViolations(list.page)).toEqual([]);

      const page = await open(app().apiKey, '#/notifications/hook-e');
      await page.page.getByRole('region', { name: 'State' }).locator('dl.facts').waitFor();
      expect((await facts(page, 'State')).slice(0, 2)).toEqual([
        ['State', 'Failing0 % delivered in the last hour'],
        ['Reason', 'none'],
      ]);
      expect(await seriousViolations(page.page)).toEqual([]);
    });

    it('says what to do for an unknown target', async () => {
      const tab = await open(app().apiKey, '#/notifications/no-such-hook');
      const alert = tab.page.getByRole('alert');
      // The alert renders once the API has answered: wait for it before reading its text.
      await alert.locator('p').nth(1).waitFor();
      await expect(alert.locator('p').allTextContents()).resolves.toEqual([
        'Could not load the notification target: Notification not found',
        'It does not exist, or it is outside what this key may see.',
      ]);
      expect(
        await tab.page.getByRole('link', { name: 'All notification targets' }).getAttribute('href'),
      ).toBe('#/notifications');
      expect(await seriousViolations(tab.page)).toEqual([]);
    });

    it('fits a 390 px wide screen, the list and a target', async () => {
      const list = await open(app().apiKey, '#/notifications', PHONE);
      await list.page.getByRole('table', { name: 'Notification targets' }).waitFor();
      await noneShowing(list.page, 'Loading state and stats…');
      expect(await documentWidth(list.page)).toBeLessThanOrEqual(PHONE.width);
      expect(await seriousViolations(list.page)).toEqual([]);
      await screenshot(list.page, 'notifications');
      const one = await open(app().apiKey, '#/notifications/hook-b', PHONE);
      await one.page.getByRole('table', { name: 'Deliveries' }).waitFor();
      await one.page.getByRole('region', { name: 'Stats' }).locator('dl.facts').waitFor();
      expect(await documentWidth(one.page)).toBeLessThanOrEqual(PHONE.width);
      expect(await seriousViolations(one.page)).toEqual([]);
      await screenshot(one.page, 'notification');
    });
  });
});
