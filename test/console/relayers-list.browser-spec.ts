import type { Page, Response } from 'playwright-core';
import { balanceOrder } from '../../src/relayer-health/balance-order';
import { createKey, relayerBody } from '../factories';
import {
  DESKTOP,
  PHONE,
  documentWidth,
  distinct,
  liveLineWithin,
  pauseClock,
  seriousViolations,
  settledTo,
  useConsole,
} from '../support/browser';
import { useTestApp } from '../support/test-app';

/** 30 relayers, l01 to l30 in creation order, named backwards (l01 is "relayer 30"): name order is not creation order. */
const IDS = Array.from({ length: 30 }, (_, i) => `l${String(i + 1).padStart(2, '0')}`);
const nameOf = (id: string) => `relayer ${String(31 - Number(id.slice(1))).padStart(2, '0')}`;
/** The relayers a check read, and what it read (base units): the others were never checked. */
const BALANCES: Record<string, string> = { l03: '300', l07: '1000000000000000000', l11: '5' };

/** The API requests of a tab from the `from`-th request on, as path and query. */
const apiCalls = (requests: string[], from: number) =>
  requests
    .slice(from)
    .map((url) => new URL(url))
    .filter((url) => url.pathname.startsWith('/api/'))
    .map((url) => `${url.pathname}${url.search}`);

describe('the operator console: the relayers list in one request a page, searched and sorted', () => {
  const handle = useTestApp();
  const app = () => handle.current;
  const tabs = useConsole(app);

  beforeAll(async () => {
    for (const id of IDS)
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { id, name: nameOf(id) }))
        .expect(201);
    for (const [id, balance] of Object.entries(BALANCES))
      await handle.database.exec(
        `UPDATE relayer_checks SET checked_at = '2026-01-01 00:00:00.000', balance = '${balance}', balance_order = '${balanceOrder(balance)}', balance_low = 0 WHERE relayer_id = '${id}'`,
      );
  });

  const rowIds = (page: Page) => page.locator('main table tbody th .id').allTextContents();
  const idsShown = async (page: Page, expected: string[]) => {
    await settledTo(() => rowIds(page), expected);
    return rowIds(page);
  };
  const countTexts = (page: Page) =>
    page.getByRole('region', { name: 'At a glance' }).getByRole('link').allTextContents();
  /** sort=-balance: the three read, then the others, ties by id descending. */
  const RICHEST = ['l07', 'l03', 'l11', ...IDS.filter((id) => !(id in BALANCES)).reverse()].slice(0, 25);
  const COUNTS = [
    '30 Relayers',
    '30 Enabled',
    '0 Paused',
    '0 Disabled',
    '0 Low balance',
    '27 Never checked needs attention',
    '0 Failing targets',
  ];
  const LIST = '/api/v1/relayers?page=1&per_page=25&include=status';
  /** The network filter's choices: the test catalogue's names (test/support/test-catalogue.ts). */
  const NETWORK_CHOICES = ['Any', 'devnet', 'mainnet', 'mainnet-beta', 'sepolia', 'testnet'];
  /** The counts of the relayers and of the failing targets, in one answer. */
  const SUMMARY = '/api/v1/relayers/summary?include=notifications';

  describe('one request a page', () => {
    it('loads a page of 25 relayers in a new document with 3 API requests: who the key is, the list with each status, the counts with the targets', async () => {
      const tab = await tabs.open(app().apiKey, '#/relayers');
      await idsShown(tab.page, IDS.slice(0, 25));
      // A new document of the tab, as a reload or a link opened in it: the key is kept, so are the
      // networks read once a sign-in (this tab's sessionStorage); the page reads the rest.
      await tab.page.goto('about:blank');
      const from = tab.requests.length;
      await tab.page.goto(`${app().baseUrl}/console/#/relayers`);
      expect(await idsShown(tab.page, IDS.slice(0, 25))).toEqual(IDS.slice(0, 25));
      expect(await settledTo(() => countTexts(tab.page), COUNTS)).toEqual(COUNTS);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(apiCalls(tab.requests, from).sort()).toEqual(['/api/v1/api-keys/self', LIST, SUMMARY].sort());
      // The network filter still offers the networks, from what the tab kept.
      expect(
        await tab.page
          .getByRole('form', { name: 'Filter relayers' })
          // Its selects: network type, network, state.
          .locator('select')
          .nth(1)
          .locator('option')
          .allTextContents(),
      ).toEqual(NETWORK_CHOICES);

      // A key without notifications:read: the counts without the targets, in the same one request.
      const reader = await createKey(app(), { permissions: ['relayers:read', 'networks:read'] });
      const other = await tabs.open(reader.key, '#/relayers');
      await idsShown(other.page, IDS.slice(0, 25));
      await other.page.goto('about:blank');
      const start = other.requests.length;
      await other.page.goto(`${app().baseUrl}/console/#/relayers`);
      expect(await idsShown(other.page, IDS.slice(0, 25))).toEqual(IDS.slice(0, 25));
      expect(await settledTo(() => countTexts(other.page), COUNTS.slice(0, -1))).toEqual(COUNTS.slice(0, -1));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(apiCalls(other.requests, start).sort()).toEqual(
        ['/api/v1/api-keys/self', LIST, '/api/v1/relayers/summary'].sort(),
      );
    });

    it('loads a page of 25 relayers with 2 API requests from another page: the list with each status, the counts with the targets', async () => {
      const tab = await tabs.open(app().apiKey, '#/relayers');
      await idsShown(tab.page, IDS.slice(0, 25));
      // Away and back: the page loads again, the key and the networks already read (once a sign-in).
      const audit = tab.page.waitForResponse((response) => response.url().includes('/api/v1/audit?'));
      await tab.page.goto(`${app().baseUrl}/console/#/audit`);
      await audit;
      const from = tab.requests.length;
      await tab.page.goto(`${app().baseUrl}/console/#/relayers`);
      expect(await idsShown(tab.page, IDS.slice(0, 25))).toEqual(IDS.slice(0, 25));
      expect(await settledTo(() => countTexts(tab.page), COUNTS)).toEqual(COUNTS);
      // Nothing more comes later.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(apiCalls(tab.requests, from).sort()).toEqual([LIST, SUMMARY].sort());
      // Each row's status and alert came with the list.
      expect(await tab.page.locator('main table tbody tr').nth(6).locator('td').allTextContents()).toEqual([
        expect.any(String),
        'sepolia (evm)',
        'Enabled',
        '1 ETH',
        'no alert',
        expect.stringMatching(/ ago$/),
        expect.stringMatching(/ago$|^just now$/),
      ]);
    });

    it('costs the same 2 API requests with webhook targets, whatever their number: the failing ones counted by the API', async () => {
      const hooks = ['hook-1', 'hook-2', 'hook-3', 'hook-4', 'hook-5'];
      for (const id of hooks)
        await app()
          .post('/api/v1/notifications', { id, url: `https://hooks.example.com/${id}` })
          .expect(201);
      for (const id of ['hook-2', 'hook-4'])
        await app().post(`/api/v1/notifications/${id}/pause`).expect(200);
      try {
        // As above: the key and the networks read once a sign-in, before the round counted.
        const tab = await tabs.open(app().apiKey, '#/relayers');
        await idsShown(tab.page, IDS.slice(0, 25));
        // The audit page's own request answered before the count starts.
        const audit = tab.page.waitForResponse((response) => response.url().includes('/api/v1/audit?'));
        await tab.page.goto(`${app().baseUrl}/console/#/audit`);
        await audit;
        const from = tab.requests.length;
        await tab.page.goto(`${app().baseUrl}/console/#/relayers`);
        const counts = [...COUNTS.slice(0, -1), '2 Failing targets needs attention'];
        expect(await idsShown(tab.page, IDS.slice(0, 25))).toEqual(IDS.slice(0, 25));
        expect(await settledTo(() => countTexts(tab.page), counts)).toEqual(counts);
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(apiCalls(tab.requests, from).sort()).toEqual([LIST, SUMMARY].sort());
      } finally {
        for (const id of hooks) await app().delete(`/api/v1/notifications/${id}`).expect(200);
      }
    });

    it('asks the list again every 15 s with its ETag, and a list that did not change is answered 304 and kept', async () => {
      const tab = await tabs.open(app().apiKey, '#/relayers');
      await tab.page.clock.install();
      await tab.page.reload();
      await idsShown(tab.page, IDS.slice(0, 25));
      await settledTo(() => countTexts(tab.page), COUNTS);
      const answers: { path: string; status: number; tag: string | null }[] = [];
      tab.page.on('response', (response: Response) => {
        const url = new URL(response.url());
        if (url.pathname.startsWith('/api/'))
          answers.push({
            path: `${url.pathname}${url.search}`,
            status: response.status(),
            tag: response.request().headers()['if-none-match'] ?? null,
          });
      });
      const lists = () => answers.filter((a) => a.path === LIST);
      await tab.page.clock.fastForward(15_000);
      await settledTo(() => Promise.resolve(lists().length), 1);
      expect(lists()).toEqual([{ path: LIST, status: 304, tag: expect.stringMatching(/^"[\w-]+"$/) }]);
      expect(await rowIds(tab.page)).toEqual(IDS.slice(0, 25));
      // Updated by that round, not 15 s before it: the page's clock runs on meanwhile (a loaded machine
      // has taken 4 s to get here), so any age under the round's 15 s.
      expect(await settledTo(() => liveLineWithin(tab.page, 0, 14), 'Updated 0 to 14 s ago')).toBe(
        'Updated 0 to 14 s ago',
      );

      // A change: the next round gets the new list, with the tag of the old one.
      await app().patch('/api/v1/relayers/l02', { name: 'renamed' }).expect(200);
      await tab.page.clock.fastForward(15_000);
      await settledTo(() => Promise.resolve(lists().length), 2);
      expect(lists()[1]).toEqual({ path: LIST, status: 200, tag: lists()[0].tag });
      const second = tab.page.locator('main table tbody tr').nth(1).locator('th a');
      expect(await settledTo(() => second.textContent(), 'renamed')).toBe('renamed');
      await app()
        .patch('/api/v1/relayers/l02', { name: nameOf('l02') })
        .expect(200);
    });
  });

  describe('search', () => {
    it('searches as you type, once typing pauses, the search in the URL', async () => {
      const tab = await tabs.open(app().apiKey, '#/relayers');
      await tab.page.clock.install();
      await tab.page.reload();
      await idsShown(tab.page, IDS.slice(0, 25));
      const from = tab.requests.length;
      // Typed on a paused clock, keys 40 ms apart by it: a loaded machine cannot put the search's
      // 300 ms pause between two keys (it did: 'relaye' was searched). Resumed, the pause comes.
      await pauseClock(tab.page);
      for (const key of 'relayer 2') {
        await tab.page.getByLabel('Search').press(key === ' ' ? 'Space' : key);
        await tab.page.clock.runFor(40);
      }
      await tab.page.clock.resume();
      // relayer 20 to relayer 29: l11 down to l02, in creation order.
      const found = IDS.slice(1, 11);
      expect(await idsShown(tab.page, found)).toEqual(found);
      expect(new URL(tab.page.url()).hash).toBe('#/relayers?q=relayer+2');
      // One list request for the whole word, not one a key.
      expect(
        distinct(apiCalls(tab.requests, from).filter((call) => call.startsWith('/api/v1/relayers?'))),
      ).toEqual(['/api/v1/relayers?page=1&per_page=25&include=status&q=relayer%202']);
      expect(await tab.page.getByRole('table').locator('caption').textContent()).toBe('Relayers (filtered)');
      expect(await seriousViolations(tab.page)).toEqual([]);

      // Shared, the link opens the same search, in the field.
      const other = await tabs.open(app().apiKey, '#/relayers?q=L3');
      expect(await idsShown(other.page, ['l30'])).toEqual(['l30']);
      expect(await other.page.getByLabel('Search').inputValue()).toBe('L3');
    });

    it('says when nothing matches, and Clear filters clears the search', async () => {
      const tab = await tabs.open(app().apiKey, '#/relayers');
      await idsShown(tab.page, IDS.slice(0, 25));
      await tab.page.getByLabel('Search').fill('nothing here');
      const empty = tab.page.locator('main .state.empty');
      expect(
        await settledTo(
          () => empty.textContent(),
          'No relayer matches “nothing here”. Clear the search to see every relayer.',
        ),
      ).toBe('No relayer matches “nothing here”. Clear the search to see every relayer.');
      await tab.page.getByLabel('State').selectOption('paused');
      expect(
        await settledTo(
          () => empty.textContent(),
          'No relayer matches “nothing here” with these filters. Clear the search and the filters to see every relayer.',
        ),
      ).toBe(
        'No relayer matches “nothing here” with these filters. Clear the search and the filters to see every relayer.',
      );
      expect(new URL(tab.page.url()).hash).toBe('#/relayers?q=nothing+here&state=paused');
      await tab.page.getByRole('button', { name: 'Clear filters' }).click();
      expect(await idsShown(tab.page, IDS.slice(0, 25))).toEqual(IDS.slice(0, 25));
      expect(new URL(tab.page.url()).hash).toBe('#/relayers');
      expect(await tab.page.getByLabel('Search').inputValue()).toBe('');
    });
  });

  describe('sortable columns', () => {
    const headers = (page: Page) =>
      page
        .locator('main table thead th')
        .evaluateAll((all) => all.map((th) => [th.textContent, th.getAttribute('aria-sort')]));

    it('sorts by name, balance, last check and creation, the order in the URL and on the header', async () => {
      const tab = await tabs.open(app().apiKey, '#/relayers');
      await idsShown(tab.page, IDS.slice(0, 25));
      expect(await headers(tab.page)).toEqual([
        ['Relayer ↕', null],
        ['Address', null],
        ['Network', null],
        ['State', null],
        ['Balance ↕', null],
        ['Alert below', null],
        ['Last check ↕', null],
        ['Created ▲', 'ascending'],
      ]);
      const sortBy = (name: string) => tab.page.getByRole('button', { name, exact: true }).click();

      await sortBy('Relayer');
      const byName = [...IDS].reverse().slice(0, 25);
      expect(await idsShown(tab.page, byName)).toEqual(byName);
      expect(new URL(tab.page.url()).hash).toBe('#/relayers?sort=name');
      expect((await headers(tab.page))[0]).toEqual(['Relayer ▲', 'ascending']);
      expect((await headers(tab.page))[7]).toEqual(['Created ↕', null]);

      // Balance: the relayers without one last, either way (ties by id).
      const unread = IDS.filter((id) => !(id in BALANCES));
      await sortBy('Balance');
      const cheapest = ['l11', 'l03', 'l07', ...unread].slice(0, 25);
      expect(await idsShown(tab.page, cheapest)).toEqual(cheapest);
      expect(new URL(tab.page.url()).hash).toBe('#/relayers?sort=balance');
      await sortBy('Balance');
      // Descending, the ties go by id descending too.
      const richest = ['l07', 'l03', 'l11', ...[...unread].reverse()].slice(0, 25);
      expect(await idsShown(tab.page, richest)).toEqual(richest);
      expect(new URL(tab.page.url()).hash).toBe('#/relayers?sort=-balance');
      expect((await headers(tab.page))[4]).toEqual(['Balance ▼', 'descending']);
      expect(await seriousViolations(tab.page)).toEqual([]);

      await sortBy('Created');
      await sortBy('Created');
      const newest = [...IDS].reverse().slice(0, 25);
      expect(await idsShown(tab.page, newest)).toEqual(newest);
      expect(new URL(tab.page.url()).hash).toBe('#/relayers?sort=-created_at');

      // A search keeps the order, and the order the search.
      await tab.page.getByLabel('Search').fill('relayer 2');
      expect(await idsShown(tab.page, IDS.slice(1, 11).reverse())).toEqual(IDS.slice(1, 11).reverse());
      expect(new URL(tab.page.url()).hash).toBe('#/relayers?q=relayer+2&sort=-created_at');
      await sortBy('Last check');
      // The three checked at the same time first (ties by id), then the never checked.
      const checked = ['l03', 'l07', 'l11', 'l02', 'l04', 'l05', 'l06', 'l08', 'l09', 'l10'];
      expect(await idsShown(tab.page, checked)).toEqual(checked);
      expect(new URL(tab.page.url()).hash).toBe('#/relayers?q=relayer+2&sort=checked_at');
    });

    it('fits a 390 px screen with the search and the sorted headers, with no accessibility violation', async () => {
      const tab = await tabs.open(app().apiKey, '#/relayers?q=relayer&sort=-balance', PHONE);
      await idsShown(tab.page, RICHEST);
      expect(await documentWidth(tab.page)).toBeLessThanOrEqual(PHONE.width);
      expect(await seriousViolations(tab.page)).toEqual([]);
      const desktop = await tabs.open(app().apiKey, '#/relayers?q=relayer&sort=-balance', DESKTOP);
      await idsShown(desktop.page, RICHEST);
      expect(await seriousViolations(desktop.page)).toEqual([]);
    });
  });
});
