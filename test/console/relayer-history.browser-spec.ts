import type { Page } from 'playwright-core';
import { relayerBody, subscribe } from '../factories';
import { DESKTOP, PHONE, documentWidth, seriousViolations, settledTo, useConsole } from '../support/browser';
import { useTestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

interface Bucket {
  start: string;
  delivered: number;
  failed: number;
  p95_ms: number | null;
}

/** A time as the page writes it in en-GB at UTC (the test tabs' locale and zone). */
const hourRow = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
/** A SQLite datetime `ms` ago. */
const sqlTime = (ms: number) => new Date(Date.now() - ms).toISOString().replace('T', ' ').replace('Z', '');
const DAY = 24 * 3600 * 1000;

interface Delivery {
  id: string;
  event: string;
  status: string;
  notification_id: string;
}

describe('the operator console: a relayer’s deliveries to every target, and its balance over 7 days', () => {
  const receiver = new WebhookReceiver();
  const handle = useTestApp();
  const app = () => handle.current;
  const tabs = useConsole(app);
  const RELAYER = 'rh-1';

  beforeAll(async () => {
    await receiver.start();
    // Its own target, and another that hears it through a subscription.
    for (const [id, path] of [
      ['hook-own', '/own'],
      ['hook-sub', '/sub'],
    ])
      await app()
        .post('/api/v1/notifications', { id, url: receiver.url(path) })
        .expect(201);
    await subscribe(app(), 'hook-sub', { relayer_ids: [RELAYER] });
    await app()
      .post(
        '/api/v1/relayers',
        relayerBody('evm', { id: RELAYER, name: 'heard twice', notification_id: 'hook-own' }),
      )
      .expect(201);
    await app().patch(`/api/v1/relayers/${RELAYER}`, { name: 'heard twice, renamed' }).expect(200);
    // Its balance: 3 ETH before the window, 2 ETH 3 days ago, 1.5 ETH yesterday; an alert below 1 ETH.
    for (const [ago, balance] of [
      [10 * DAY, '3000000000000000000'],
      [3 * DAY, '2000000000000000000'],
      [DAY, '1500000000000000000'],
    ] as const)
      await handle.database.exec(
        `INSERT INTO relayer_balance_samples (relayer_id, at, balance) VALUES ('${RELAYER}', '${sqlTime(ago)}', '${balance}')`,
      );
    await app()
      .put(`/api/v1/relayers/${RELAYER}/balance-alert`, { threshold: '1000000000000000000' })
      .expect(200);
    await waitFor('the four deliveries delivered', async () => {
      const log = (await app().get(`/api/v1/relayers/${RELAYER}/deliveries`).expect(200)).body
        .data as Delivery[];
      return log.length === 4 && log.every((d) => d.status === 'delivered');
    });
  });
  afterAll(async () => {
    await receiver.close();
  });

  const open = async (hash: string, viewport = DESKTOP) => {
    const tab = await tabs.open(app().apiKey, '', viewport);
    await tab.page.getByRole('heading', { level: 1 }).waitFor();
    await tab.page.goto(`${app().baseUrl}/console/${hash}`);
    return tab;
  };
  const rows = (page: Page) =>
    page
      .locator('section[aria-labelledby="relayer-deliveries"] table tbody tr')
      .evaluateAll((all) => all.map((tr) => [...tr.children].slice(1, 4).map((cell) => cell.textContent)));

  it('lists the deliveries to every target that hears it, each target a link (the bug: only its own target’s)', async () => {
    const tab = await open(`#/relayers/${RELAYER}`);
    const log = (await app().get(`/api/v1/relayers/${RELAYER}/deliveries`).expect(200)).body
      .data as Delivery[];
    const expected = log.map((d) => [d.notification_id, d.event, 'delivered']);
    expect(expected.map(([target, event]) => `${target} ${event}`).sort()).toEqual([
      'hook-own relayer_created',
      'hook-own relayer_updated',
      'hook-sub relayer_created',
      'hook-sub relayer_updated',
    ]);
    expect(await settledTo(() => rows(tab.page), expected)).toEqual(expected);
    const table = tab.page.getByRole('table', {
      name: 'Deliveries of its events, to every target that hears it',
    });
    expect(await table.locator('thead th').allTextContents()).toEqual([
      'Created',
      'Target',
      'Event',
      'Status',
      'Attempts',
      'Last answer',
      'Delivered or next attempt',
    ]);
    expect(
      await table
        .locator('tbody td:nth-child(2) a')
        .evaluateAll((all) => all.map((a) => a.getAttribute('href'))),
    ).toEqual(log.map((d) => `#/notifications/${d.notification_id}`));
    // Read with one request: the relayer's own list, never a target's.
    expect(
      tab.requests.filter((url) => url.includes('/deliveries')).map((url) => new URL(url).pathname),
    ).toEqual(expect.arrayContaining([`/api/v1/relayers/${RELAYER}/deliveries`]));
    expect(
      tab.requests.filter((url) => url.includes('/api/v1/notifications/') && url.includes('/deliveries')),
    ).toEqual([]);
  });

  /** The figures of a section: caption, the drawing's label, and the rows of its numbers. */
  const figures = (page: Page, section: string) =>
    page.locator(`section[aria-labelledby="${section}"] figure`).evaluateAll((all) =>
      all.map((figure) => ({
        caption: figure.querySelector('figcaption')?.textContent,
        label: figure.querySelector('svg')?.getAttribute('aria-label'),
        rows: [...figure.querySelectorAll('details tbody tr')].map((tr) =>
          [...tr.children].map((cell) => cell.textContent),
        ),
      })),
    );

  it('draws its balance over 7 days in ETH, the alert threshold dashed, the numbers in a table', async () => {
    const tab = await open(`#/relayers/${RELAYER}`);
    const history = (await app().get(`/api/v1/relayers/${RELAYER}/balance-history?window=7d`).expect(200))
      .body.data as { samples: { at: string; balance: string }[] };
    expect(history.samples.map((s) => s.balance)).toEqual([
      '3000000000000000000',
      '2000000000000000000',
      '1500000000000000000',
    ]);
    const expected = [
      {
        caption: 'Balance, last 7 days',
        label: 'Balance over the last 7 days: 3 balances recorded, now 1.5 ETH; alert below 1 ETH',
        rows: history.samples.map((s, i) => [
          new Date(s.at).toLocaleString('en-GB', { timeZone: 'UTC' }),
          ['3 ETH', '2 ETH', '1.5 ETH'][i],
        ]),
      },
    ];
    expect(await settledTo(() => figures(tab.page, 'relayer-balance-history'), expected)).toEqual(expected);
    const line = tab.page.locator('section[aria-labelledby="relayer-balance-history"] line.threshold');
    expect(await line.locator('title').textContent()).toBe('Alert below 1 ETH');
    // Dashed, by the stylesheet (no inline style).
    expect(
      await line.evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).strokeDasharray),
    ).toBe('6px, 4px');
    await tab.page.getByText('Show the numbers').click();
    expect(await seriousViolations(tab.page)).toEqual([]);

    const phone = await open(`#/relayers/${RELAYER}`, PHONE);
    await settledTo(() => figures(phone.page, 'relayer-balance-history'), expected);
    expect(await documentWidth(phone.page)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(phone.page)).toEqual([]);
  });

  describe('a target’s page', () => {
    const series = async (window: '24h' | '7d') =>
      (
        (await app().get(`/api/v1/notifications/hook-own/stats/series?window=${window}`).expect(200)).body
          .data as {
          buckets: Bucket[];
        }
      ).buckets;
    const charts = (buckets: Bucket[], window: '24h' | '7d') => {
      const worst = buckets.reduce<Bucket | null>(
        (top, b) => (b.p95_ms !== null && (top === null || b.p95_ms > (top.p95_ms ?? 0)) ? b : top),
        null,
      );
      const span = window === '7d' ? '7 days' : '24 hours';
      return [
        {
          caption: `Deliveries per hour, last ${span}`,
          label: `Deliveries per hour over the last ${window}: 2 delivered, 0 failed`,
          rows: buckets.map((b) => [
            hourRow(b.start),
            String(b.delivered),
            String(b.failed),
            b.p95_ms === null ? '–' : `${b.p95_ms} ms`,
          ]),
        },
        {
          caption: `p95 latency per hour, last ${span}`,
          label: `p95 latency per hour over the last ${window}: highest ${worst?.p95_ms} ms, at ${hourRow(worst?.start ?? '')}`,
          rows: buckets.map((b) => [hourRow(b.start), b.p95_ms === null ? '–' : `${b.p95_ms} ms`]),
        },
      ];
    };

    it('charts its deliveries and p95 latency per hour over 24 hours, and over 7 days at the switch', async () => {
      const tab = await open('#/notifications/hook-own');
      const day = await series('24h');
      expect(day).toHaveLength(24);
      expect(day.reduce((sum, b) => sum + b.delivered, 0)).toBe(2);
      expect(await settledTo(() => figures(tab.page, 'history-heading'), charts(day, '24h'))).toEqual(
        charts(day, '24h'),
      );
      const switches = tab.page.getByRole('group', { name: 'Chart window' }).getByRole('button');
      expect(await switches.allTextContents()).toEqual(['Last 24 hours', 'Last 7 days']);
      expect(await switches.evaluateAll((all) => all.map((b) => b.getAttribute('aria-pressed')))).toEqual([
        'true',
        'false',
      ]);
      for (const summary of await tab.page.getByText('Show the numbers').all()) await summary.click();
      expect(await seriousViolations(tab.page)).toEqual([]);

      await tab.page.getByRole('button', { name: 'Last 7 days' }).click();
      const week = await series('7d');
      expect(week).toHaveLength(168);
      expect(await settledTo(() => figures(tab.page, 'history-heading'), charts(week, '7d'))).toEqual(
        charts(week, '7d'),
      );
      expect(await switches.evaluateAll((all) => all.map((b) => b.getAttribute('aria-pressed')))).toEqual([
        'false',
        'true',
      ]);

      const phone = await open('#/notifications/hook-own', PHONE);
      await settledTo(() => figures(phone.page, 'history-heading'), charts(day, '24h'));
      expect(await documentWidth(phone.page)).toBeLessThanOrEqual(PHONE.width);
      expect(await seriousViolations(phone.page)).toEqual([]);
    });
  });
});
