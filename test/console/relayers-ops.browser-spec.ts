import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { absoluteTime, relativeTime } from '../../console/src/when';
import { createKey, createRelayerFixtures, relayersInEveryState, setBalanceAlert } from '../factories';
import {
  DESKTOP,
  documentWidth,
  liveLineWithin,
  noneShowing,
  pauseClock,
  PHONE,
  seriousViolations,
  settledTo,
  signIn,
  useConsole,
  type ConsoleTab,
} from '../support/browser';
import { writeConfigFile } from '../support/test-catalogue';
import { defaultCatalogue, useTestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

/** r01 to r09, which a key scoped to `r0*` sees, and x10: every network type and state (test/factories). */
const FIXTURES = relayersInEveryState('r', 'x');
const ALL = FIXTURES.map((f) => f.id);
const R01_BALANCE = '1234567891234000000';

/** The default test catalogue with a symbol of its own for sepolia (r01, r02): the others use their type's. */
function catalogueWithSymbol(): string {
  const config = JSON.parse(fs.readFileSync(defaultCatalogue().file, 'utf8')) as {
    networks: { type: string; network: string; symbol?: string }[];
  };
  for (const network of config.networks)
    if (network.type === 'evm' && network.network === 'sepolia') network.symbol = 'SepoliaETH';
  return writeConfigFile(config);
}

describe('the operator console: the relayers page as an operations view', () => {
  const receiver = new WebhookReceiver();
  const handle = useTestApp({ CONFIG_FILE: catalogueWithSymbol() });
  const app = () => handle.current;
  const tabs = useConsole(app);
  const addresses: Record<string, string> = {};

  beforeAll(async () => {
    await receiver.start();
    await createRelayerFixtures(handle, FIXTURES);
    for (const id of ALL)
      addresses[id] = (
        (await app().get(`/api/v1/relayers/${id}`).expect(200)).body.data as { address: string }
      ).address;
    // Checks the API cannot make here (RELAYER_HEALTH_CHECKS is off), as the summary's tests make them:
    // r01 and r03 found below their threshold, r06 too but its own null silences its network's, r09
    // above; the others never checked.
    await handle.database.exec(
      `UPDATE relayer_checks SET checked_at = '2026-01-01 00:00:00.000', balance = '${R01_BALANCE}', balance_low = 1 WHERE relayer_id = 'r01'`,
    );
    await handle.database.exec(
      "UPDATE relayer_checks SET checked_at = '2026-01-01 00:00:00.000', balance = '5', balance_low = 1 WHERE relayer_id = 'r03'",
    );
    await handle.database.exec(
      "UPDATE relayer_checks SET checked_at = '2026-01-01 00:00:00.000', balance = '1500000000', balance_low = 1 WHERE relayer_id = 'r06'",
    );
    await handle.database.exec(
      "UPDATE relayer_checks SET checked_at = '2026-01-01 00:00:00.000', balance = '500', balance_low = 0 WHERE relayer_id = 'r09'",
    );
    await setBalanceAlert(app(), 'relayers/r01', '2000000000000000000');
    await setBalanceAlert(app(), 'networks/evm:mainnet', '10');
    await setBalanceAlert(app(), 'networks/solana:devnet', '10');
    await setBalanceAlert(app(), 'relayers/r06', null);
    // Three webhook targets: one delivering, one paused by hand, one whose hour is all failures.
    receiver.script('/failing', [{ status: 410 }]);
    for (const [id, path] of [
      ['hook-ok', '/ok'],
      ['hook-paused', '/paused'],
      ['hook-failing', '/failing'],
    ])
      await app()
        .post('/api/v1/notifications', { id, url: receiver.url(path) })
        .expect(201);
    await app().post('/api/v1/notifications/hook-paused/pause').expect(200);
    await app().patch('/api/v1/relayers/r09', { notification_id: 'hook-ok' }).expect(200);
    await app().patch('/api/v1/relayers/r08', { notification_id: 'hook-failing' }).expect(200);
    await waitFor('the deliveries to end', async () => {
      const ended = async (id: string) =>
        (await app().get(`/api/v1/notifications/${id}/stats?window=1h`).expect(200)).body.data as {
          delivered: number;
          failed: number;
        };
      const [ok, failing] = [await ended('hook-ok'), await ended('hook-failing')];
      return ok.delivered >= 1 && failing.failed >= 1;
    });
  });
  afterAll(async () => {
    await receiver.close();
  });

  /** A tab signed in with the key, at `hash` once the first section has been drawn (which moves the hash). */
  const open = async (key: string, hash: string, viewport = DESKTOP) => {
    const tab = await tabs.open(key, '', viewport);
    await tab.page.getByRole('heading', { level: 1 }).waitFor();
    await tab.page.goto(`${app().baseUrl}/console/${hash}`);
    return tab;
  };
  const strip = (page: Page) => page.getByRole('region', { name: 'At a glance' });
  const countTexts = (page: Page) => strip(page).getByRole('link').allTextContents();
  /** The counts once none is being read (`…`), then their texts. */
  const counts = async (page: Page, expected: string[]) => {
    await settledTo(() => countTexts(page), expected);
    return countTexts(page);
  };
  const rowIds = (page: Page) => page.locator('main table tbody th .id').allTextContents();
  const idsShown = async (page: Page, expected: string[]) => {
    await settledTo(() => rowIds(page), expected);
    return rowIds(page);
  };
  /** The table's cells of a column (1: the relayer), once no row's status is loading. */
  const column = async (page: Page, n: number) => {
    await page.locator('main').filter({ hasNotText: 'Loading' }).waitFor();
    return page.locator(`main table tbody tr > :nth-child(${n})`).allTextContents();
  };
  const ADMIN_COUNTS = [
    '10 Relayers',
    '4 Enabled',
    '4 Paused',
    '3 Disabled needs attention',
    '2 Low balance needs attention',
    '6 Never checked needs attention',
    '2 Failing targets needs attention',
  ];

  describe('attention first', () => {
    it('opens with the counts of what the key may see, those asking for attention said in words', async () => {
      const tab = await open(app().apiKey, '#/relayers');
      expect(await counts(tab.page, ADMIN_COUNTS)).toEqual(ADMIN_COUNTS);
      const links = strip(tab.page).getByRole('link');
      expect(await links.evaluateAll((all) => all.map((a) => a.className))).toEqual([
        'count',
        'count',
        'count',
        'count attention',
        'count attention',
        'count attention',
        'count attention',
      ]);
      expect(await links.evaluateAll((all) => all.map((a) => a.getAttribute('aria-current')))).toEqual([
        'true',
        null,
        null,
        null,
        null,
        null,
        null,
      ]);
      expect(await seriousViolations(tab.page)).toEqual([]);
    });

    it('counts only within the key’s scope, calmly where nothing asks for attention, and no targets without notifications:read', async () => {
      const scoped = (await createKey(app(), { permissions: ['relayers:read'], relayer_ids: ['r0*'] })).key;
      const tab = await open(scoped, '#/relayers');
      const nine = [
        '9 Relayers',
        '4 Enabled',
        '3 Paused',
        '3 Disabled needs attention',
        '2 Low balance needs attention',
        '5 Never checked needs attention',
      ];
      expect(await counts(tab.page, nine)).toEqual(nine);

      const one = (
        await createKey(app(), { permissions: ['relayers:read', 'notifications:read'], relayer_ids: ['r09'] })
      ).key;
      const calm = await open(one, '#/relayers');
      const quiet = [
        '1 Relayers',
        '1 Enabled',
        '0 Paused',
        '0 Disabled',
        '0 Low balance',
        '0 Never checked',
        '0 Failing targets',
      ];
      expect(await counts(calm.page, quiet)).toEqual(quiet);
      expect(
        await strip(calm.page)
          .getByRole('link')
          .evaluateAll((all) => all.map((a) => a.className)),
      ).toEqual(['count', 'count', 'count calm', 'count calm', 'count calm', 'count calm', 'count calm']);
      expect(await seriousViolations(calm.page)).toEqual([]);
    });

    it('makes each count a link that filters the table, the filter in the URL', async () => {
      const tab = await open(app().apiKey, '#/relayers');
      await counts(tab.page, ADMIN_COUNTS);
      const expected: [string, string, string[]][] = [
        ['3 Disabled', 'state=disabled', ['r04', 'r05', 'r08']],
        ['2 Low balance', 'state=low_balance', ['r01', 'r03']],
        ['6 Never checked', 'state=unchecked', ['r02', 'r04', 'r05', 'r07', 'r08', 'x10']],
        ['4 Paused', 'state=paused', ['r02', 'r05', 'r07', 'x10']],
        ['4 Enabled', 'state=enabled', ['r01', 'r03', 'r06', 'r09']],
      ];
      for (const [name, query, ids] of expected) {
        await strip(tab.page)
          .getByRole('link', { name: new RegExp(`^${name}`) })
          .click();
        expect(await idsShown(tab.page, ids)).toEqual(ids);
        expect(new URL(tab.page.url()).hash).toBe(`#/relayers?${query}`);
        expect(await tab.page.getByLabel('State').inputValue()).toBe(query.slice('state='.length));
        expect(await strip(tab.page).locator('[aria-current="true"]').textContent()).toMatch(
          new RegExp(`^${name}`),
        );
      }
      await strip(tab.page)
        .getByRole('link', { name: /^10 Relayers/ })
        .click();
      expect(await idsShown(tab.page, ALL)).toEqual(ALL);
      expect(new URL(tab.page.url()).hash).toBe('#/relayers');

      // Shared, the link opens the same list.
      const other = await open(app().apiKey, '#/relayers?state=low_balance');
      expect(await idsShown(other.page, ['r01', 'r03'])).toEqual(['r01', 'r03']);
      expect(await other.page.getByLabel('State').inputValue()).toBe('low_balance');
    });

    it('links the failing targets to the notifications page filtered to them', async () => {
      const tab = await open(app().apiKey, '#/relayers');
      await counts(tab.page, ADMIN_COUNTS);
      await strip(tab.page)
        .getByRole('link', { name: /^2 Failing targets/ })
        .click();
      const failing = tab.page.getByRole('table', { name: 'Failing notification targets' });
      await failing.waitFor();
      await noneShowing(tab.page, 'Loading state and stats…');
      expect(new URL(tab.page.url()).hash).toBe('#/notifications?failing=true');
      expect(await failing.locator('tbody th').allTextContents()).toEqual(['hook-paused', 'hook-failing']);
      expect(await failing.locator('tbody td:nth-child(4)').allTextContents()).toEqual([
        'Paused Failingpaused by hand',
        'Failing0 % delivered in the last hour',
      ]);
      expect(await tab.page.getByLabel('Show').inputValue()).toBe('failing');
      expect(await seriousViolations(tab.page)).toEqual([]);
      await tab.page.getByLabel('Show').selectOption('');
      const all = tab.page.getByRole('table', { name: 'Notification targets' });
      await all.waitFor();
      expect(new URL(tab.page.url()).hash).toBe('#/notifications');
      expect(await all.locator('tbody th').allTextContents()).toEqual([
        'hook-ok',
        'hook-paused',
        'hook-failing',
      ]);

      const phone = await open(app().apiKey, '#/notifications?failing=true', PHONE);
      await phone.page.getByRole('table', { name: 'Failing notification targets' }).waitFor();
      expect(await documentWidth(phone.page)).toBeLessThanOrEqual(PHONE.width);
      expect(await seriousViolations(phone.page)).toEqual([]);
    });

    it('fits a 390 px screen, the counts wrapping above the table', async () => {
      const tab = await open(app().apiKey, '#/relayers', PHONE);
      expect(await counts(tab.page, ADMIN_COUNTS)).toEqual(ADMIN_COUNTS);
      await column(tab.page, 1);
      expect(await documentWidth(tab.page)).toBeLessThanOrEqual(PHONE.width);
      expect(await seriousViolations(tab.page)).toEqual([]);
    });
  });

  describe('the address column', () => {
    it('shows the whole address in monospace at 1280 px, and copies it', async () => {
      const tab = await open(app().apiKey, '#/relayers');
      await tab.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app().baseUrl });
      await idsShown(tab.page, ALL);
      const cell = tab.page.locator('main table tbody tr').first().locator('td').first();
      expect(await tab.page.locator('main table thead th').nth(1).textContent()).toBe('Address');
      expect(await cell.locator('.address-whole').textContent()).toBe(addresses.r01);
      expect(await cell.locator('.address-whole').isVisible()).toBe(true);
      expect(await cell.locator('.address-short').isVisible()).toBe(false);
      // Monospace: the console's .mono (ui-monospace, ..., monospace).
      expect(await cell.locator('.address-whole').getAttribute('class')).toBe('mono address-whole');
      await cell.getByRole('button', { name: 'Copy the address of relayer evm' }).click();
      await expect(cell.getByRole('status').textContent()).resolves.toBe('Address copied.');
      expect(await tab.page.evaluate<string>('navigator.clipboard.readText()')).toBe(addresses.r01);
    });

    it('cuts it in its middle at 390 px, the whole value in its title, the table scrolling in its frame', async () => {
      const tab = await open(app().apiKey, '#/relayers', PHONE);
      await idsShown(tab.page, ALL);
      const cells = tab.page.locator('main table tbody tr td:nth-child(2)');
      const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;
      expect(await cells.locator('.address-short').allTextContents()).toEqual(
        ALL.map((id) => short(addresses[id])),
      );
      expect(
        await cells.locator('.address-short').evaluateAll((all) => all.map((el) => el.getAttribute('title'))),
      ).toEqual(ALL.map((id) => addresses[id]));
      expect(await cells.first().locator('.address-short').isVisible()).toBe(true);
      // Out of sight, still what a screen reader reads (the short form is hidden from it).
      expect(await cells.first().locator('.address-whole').boundingBox()).toEqual(
        expect.objectContaining({ width: 1, height: 1 }),
      );
      const frame = tab.page.getByRole('region', { name: 'Relayers' });
      const [scroll, client] = await frame.evaluate((el) => [el.scrollWidth, el.clientWidth]);
      expect(scroll).toBeGreaterThan(client);
      expect(await documentWidth(tab.page)).toBeLessThanOrEqual(PHONE.width);
      expect(await seriousViolations(tab.page)).toEqual([]);
    });
  });

  describe('numbers and times', () => {
    it('shows amounts in native units with the network’s symbol, 6 significant digits, exact on hover; unknown when never read', async () => {
      const tab = await open(app().apiKey, '#/relayers');
      await idsShown(tab.page, ALL);
      expect(await column(tab.page, 5)).toEqual([
        '≈ 1.23457 SepoliaETHLow',
        'unknown',
        '0.000000000000000005 ETHLow',
        'unknown',
        'unknown',
        '1.5 SOL',
        'unknown',
        'unknown',
        '0.00005 XLM',
        'unknown',
      ]);
      const amounts = tab.page.locator('main table tbody td:nth-child(5) .amount');
      expect(await amounts.evaluateAll((all) => all.map((el) => el.getAttribute('title')))).toEqual([
        `1.234567891234 SepoliaETH (${R01_BALANCE} wei)`,
        '0.000000000000000005 ETH (5 wei)',
        '1.5 SOL (1500000000 lamports)',
        '0.00005 XLM (500 stroops)',
      ]);
      expect(await column(tab.page, 6)).toEqual([
        '2 SepoliaETH',
        'no alert',
        '0.00000000000000001 ETH',
        '0.00000000000000001 ETH',
        '0.00000000000000001 ETH',
        'no alert',
        'no alert',
        'no alert',
        'no alert',
        'no alert',
      ]);

      // The relayer's own page says the same.
      await tab.page.goto(`${app().baseUrl}/console/#/relayers/r01`);
      const balance = tab.page.locator('section[aria-labelledby="relayer-status"] dd').first();
      await balance.waitFor();
      expect(await balance.textContent()).toBe('≈ 1.23457 SepoliaETH');
      expect(await balance.locator('.amount').getAttribute('title')).toBe(
        `1.234567891234 SepoliaETH (${R01_BALANCE} wei)`,
      );
      await expect(tab.page.locator('.alert-rule').textContent()).resolves.toBe(
        'Alert below 2 SepoliaETH, from its own rule.',
      );
      expect(await seriousViolations(tab.page)).toEqual([]);
    });

    it('keeps the networks’ symbols for the sign-in: a new document of the tab shows them without reading the networks again; another sign-in reads them', async () => {
      const networkReads = (tab: ConsoleTab) =>
        tab.requests.filter((url) => new URL(url).pathname === '/api/v1/networks').length;
      const tab = await open(app().apiKey, '#/relayers');
      await idsShown(tab.page, ALL);
      expect((await column(tab.page, 5))[0]).toBe('≈ 1.23457 SepoliaETHLow');
      expect(networkReads(tab)).toBe(1);
      await tab.page.reload();
      await idsShown(tab.page, ALL);
      expect((await column(tab.page, 5))[0]).toBe('≈ 1.23457 SepoliaETHLow');
      expect((await column(tab.page, 6))[0]).toBe('2 SepoliaETH');
      expect(networkReads(tab)).toBe(1);
      // Signed out, the tab forgets them: the next sign-in reads them again.
      await tab.page.getByRole('button', { name: 'Sign out' }).click();
      expect(
        await tab.page.evaluate(() =>
          Object.keys(globalThis.sessionStorage).filter((name) => name.startsWith('relayer-console.')),
        ),
      ).toEqual([]);
      await signIn(tab, app().apiKey);
      await idsShown(tab.page, ALL);
      expect((await column(tab.page, 5))[0]).toBe('≈ 1.23457 SepoliaETHLow');
      expect(networkReads(tab)).toBe(2);
    });

    it('shows every time relative, with the absolute time and its zone on hover, in a <time>', async () => {
      const checked = Date.parse('2026-01-01T00:00:00.000Z');
      const tab = await open(app().apiKey, '#/relayers');
      await idsShown(tab.page, ALL);
      const times = tab.page.locator('main table tbody td:nth-child(7)');
      expect(await column(tab.page, 7)).toEqual(
        ALL.map((id) =>
          ['r01', 'r03', 'r06', 'r09'].includes(id) ? relativeTime(checked, Date.now()) : 'never',
        ),
      );
      expect(
        await times
          .locator('time')
          .evaluateAll((all) => all.map((t) => [t.getAttribute('datetime'), t.getAttribute('title')])),
      ).toEqual(Array(4).fill(['2026-01-01T00:00:00.000Z', absoluteTime(checked, 0)]));
      expect(absoluteTime(checked, 0)).toBe('2026-01-01 00:00:00 UTC+00:00');

      // A reader elsewhere: the hover says its own zone.
      const context = await tabs.browser.newContext({
        viewport: DESKTOP,
        timezoneId: 'Asia/Kolkata',
        locale: 'en-GB',
      });
      const page = await context.newPage();
      const away = tabs.track({ context, page, requests: [], errors: [], close: () => context.close() });
      await page.goto(`${app().baseUrl}/console/#/relayers`);
      await signIn(away, app().apiKey);
      await idsShown(page, ALL);
      expect(await page.locator('main table tbody time').first().getAttribute('title')).toBe(
        '2026-01-01 05:30:00 UTC+05:30',
      );
    });
  });

  describe('thresholds typed in native units', () => {
    const rule = async (owner: string) =>
      (await app().get(`/api/v1/${owner}/balance-alert`).expect(200)).body.data as unknown;

    it('on a relayer: shows what it sends in base units, refuses what is not an amount, and shows the API’s 400 beside the field', async () => {
      const tab = await open(app().apiKey, '#/relayers/r03');
      const field = tab.page.getByLabel('Threshold (ETH)');
      const note = tab.page.locator('#relayer-threshold-note');
      const outcome = tab.page.locator('section[aria-labelledby="relayer-alert"] .outcome');
      await field.waitFor();
      expect(await note.textContent()).toBe('In ETH, such as 0.05: at most 18 decimals.');
      await field.fill('0.05');
      expect(await note.textContent()).toBe('Sends 50000000000000000 wei.');
      await tab.page.getByRole('button', { name: 'Set threshold' }).click();
      await outcome.filter({ hasText: 'Threshold set' }).waitFor();
      expect(await outcome.textContent()).toBe('Threshold set: the next check compares the balance with it.');
      expect(await rule('relayers/r03')).toEqual({ threshold: '50000000000000000', source: 'relayer' });
      await expect(tab.page.locator('.alert-rule').textContent()).resolves.toBe(
        'Alert below 0.05 ETH, from its own rule.',
      );
      expect(await field.inputValue()).toBe('');

      // Finer than 1 wei: nothing is sent.
      await field.fill('0.0000000000000000001');
      expect(await note.textContent()).toBe('At most 18 decimals: 1 wei is 0.000000000000000001 ETH.');
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      await tab.page.getByRole('button', { name: 'Set threshold' }).click();
      await outcome.filter({ hasText: 'Nothing sent' }).waitFor();
      expect(await outcome.textContent()).toBe(
        'Nothing sent: At most 18 decimals: 1 wei is 0.000000000000000001 ETH.',
      );
      expect(await rule('relayers/r03')).toEqual({ threshold: '50000000000000000', source: 'relayer' });

      // An amount of more digits than the API takes: its 400, beside the field.
      const huge = `1${'0'.repeat(990)}`;
      await field.fill(huge);
      const refused = await app()
        .put('/api/v1/relayers/r03/balance-alert', { threshold: `${huge}${'0'.repeat(18)}` })
        .expect(400);
      await tab.page.getByRole('button', { name: 'Set threshold' }).click();
      const error = tab.page.locator('#relayer-threshold-refusal');
      await error.waitFor();
      expect(await error.textContent()).toBe((refused.body as { message: string }).message);
      expect(await error.getAttribute('role')).toBe('alert');
      expect(await field.getAttribute('aria-describedby')).toBe(
        'relayer-threshold-note relayer-threshold-refusal',
      );
      expect(await outcome.textContent()).toBe(
        'Nothing changed: the API refused the threshold, as said beside it.',
      );
      expect(await rule('relayers/r03')).toEqual({ threshold: '50000000000000000', source: 'relayer' });
      expect(await seriousViolations(tab.page)).toEqual([]);
      // Typing again clears the refusal.
      await field.fill('1');
      expect(await error.count()).toBe(0);
    });

    it('on a network: the default alert in SOL and XLM, exactly', async () => {
      const tab = await open(app().apiKey, '#/networks');
      const devnet = tab.page.getByRole('form', { name: 'Default alert threshold of devnet' });
      await devnet.getByLabel('New threshold (SOL)').fill('0.5');
      expect(await devnet.locator('.amount-note').textContent()).toBe('Sends 500000000 lamports.');
      await devnet.getByRole('button', { name: 'Set threshold' }).click();
      await tab.page.getByText('Default alert threshold of devnet set.').waitFor();
      expect(await rule('networks/solana:devnet')).toEqual({ threshold: '500000000', source: 'network' });

      const testnet = tab.page.getByRole('form', { name: 'Default alert threshold of testnet' });
      await testnet.getByLabel('New threshold (XLM)').fill('1.25');
      expect(await testnet.locator('.amount-note').textContent()).toBe('Sends 12500000 stroops.');
      await testnet.getByRole('button', { name: 'Set threshold' }).click();
      await tab.page.getByText('Default alert threshold of testnet set.').waitFor();
      expect(await rule('networks/stellar:testnet')).toEqual({ threshold: '12500000', source: 'network' });
      await expect(
        tab.page.locator('section[aria-labelledby="network-stellar:testnet"] .alert-rule').textContent(),
      ).resolves.toBe('Relayers on this network without a rule of their own alert below 1.25 XLM.');
      expect(await seriousViolations(tab.page)).toEqual([]);
    });
  });

  describe('live', () => {
    /** A tab on the relayers page whose clock the test moves (Playwright's fake timers; a reload keeps the key). */
    const openWithClock = async (): Promise<ConsoleTab> => {
      const tab = await open(app().apiKey, '#/relayers');
      await tab.page.clock.install();
      await tab.page.reload();
      await counts(tab.page, ADMIN_COUNTS);
      await column(tab.page, 1);
      return tab;
    };
    /** The live line says a read of the last 4 s ("just now" on a quiet machine). */
    const recent = (page: Page) => settledTo(() => liveLineWithin(page, 0, 4), 'Updated 0 to 4 s ago');
    const summaries = (tab: ConsoleTab) =>
      tab.requests.filter((url) => new URL(url).pathname === '/api/v1/relayers/summary').length;
    const setHidden = (page: Page, hidden: boolean) =>
      page.evaluate(
        `Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => '${hidden ? 'hidden' : 'visible'}' });` +
          "document.dispatchEvent(new Event('visibilitychange'))",
      );

    it('reads the page again every 15 s, keeping what it shows meanwhile, and says when it last did', async () => {
      const tab = await openWithClock();
      expect(await recent(tab.page)).toBe('Updated 0 to 4 s ago');
      const before = summaries(tab);
      // Whatever shows "Loading" from here on is a flicker.
      await tab.page.evaluate(
        "window.flickered = false; new MutationObserver(() => { if (document.querySelector('main .loading, main .state.loading')) window.flickered = true; }).observe(document.body, { subtree: true, childList: true, characterData: true })",
      );
      await app().patch('/api/v1/relayers/r01', { paused: true }).expect(200);
      // Paused a moment after the read (seconds on a loaded machine), moved 5 s: the line counts, and
      // nothing was read again. 10 s more bring the round, 15 s after the read ended.
      await pauseClock(tab.page);
      await tab.page.clock.fastForward(5_000);
      expect(await settledTo(() => liveLineWithin(tab.page, 5, 14), 'Updated 5 to 14 s ago')).toBe(
        'Updated 5 to 14 s ago',
      );
      expect(summaries(tab)).toBe(before);
      expect(await countTexts(tab.page)).toEqual(ADMIN_COUNTS);

      await tab.page.clock.fastForward(10_000);
      await tab.page.clock.resume();
      const paused = [...ADMIN_COUNTS];
      paused[1] = '3 Enabled';
      paused[2] = '5 Paused';
      expect(await counts(tab.page, paused)).toEqual(paused);
      expect(await settledTo(() => column(tab.page, 4).then((c) => c[0]), 'Paused')).toBe('Paused');
      expect(await recent(tab.page)).toBe('Updated 0 to 4 s ago');
      expect(summaries(tab)).toBe(before + 1);
      expect(await tab.page.evaluate<boolean>('window.flickered')).toBe(false);
      await app().patch('/api/v1/relayers/r01', { paused: false }).expect(200);
    });

    it('reads nothing while the tab is hidden, and reads again at once when it shows', async () => {
      const tab = await openWithClock();
      await setHidden(tab.page, true);
      const before = summaries(tab);
      await tab.page.clock.fastForward(60_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(summaries(tab)).toBe(before);

      await app().patch('/api/v1/relayers/r02', { paused: false }).expect(200);
      await setHidden(tab.page, false);
      const resumed = [...ADMIN_COUNTS];
      resumed[1] = '5 Enabled';
      resumed[2] = '3 Paused';
      expect(await counts(tab.page, resumed)).toEqual(resumed);
      expect(summaries(tab)).toBe(before + 1);
      await app().patch('/api/v1/relayers/r02', { paused: true }).expect(200);
    });
  });
});
