import request from 'supertest';
import { createKey, createRelayer } from '../factories';
import {
  documentWidth,
  PHONE,
  requestsElsewhere,
  screenshot,
  seriousViolations,
  settledTo,
  storedEntries,
  useConsole,
  type ConsoleTab,
} from '../support/browser';
import { secrets } from '../support/secrets';
import { useTestApp } from '../support/test-app';

/** The CSP of docs/console.md#security, exactly. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

describe('the operator console: shell, sign-in, security and the relayers table', () => {
  const handle = useTestApp();
  const app = () => handle.current;
  const { open, openSignedOut } = useConsole(app);

  describe('what the service serves', () => {
    it('redirects /console to /console/, which answers the page with the strict policy and no caching', async () => {
      const redirect = await request(app().baseUrl).get('/console').expect(301);
      expect(redirect.headers.location).toBe('/console/');
      const page = await request(app().baseUrl).get('/console/').expect(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toBe(CSP);
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      // No inline script: the one script is a file of the service, named by its content's hash.
      const scripts = [...page.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.map(([, attributes, body]) => [attributes.trim(), body])).toEqual([
        [expect.stringMatching(/^type="module" src="\/console\/assets\/main-[A-Z0-9]{8}\.js"$/), ''],
      ]);
    });

    it('serves the hashed assets for a year, with the same policy, and answers 404 for an unknown one', async () => {
      const page = await request(app().baseUrl).get('/console/').expect(200);
      const assets = [...page.text.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]);
      expect(assets).toEqual([
        expect.stringMatching(/^\/console\/assets\/main-[A-Z0-9]{8}\.css$/),
        expect.stringMatching(/^\/console\/assets\/main-[A-Z0-9]{8}\.js$/),
      ]);
      for (const asset of assets) {
        const res = await request(app().baseUrl).get(asset).expect(200);
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(res.headers['content-security-policy']).toBe(CSP);
      }
      const missing = await request(app().baseUrl).get('/console/assets/main-AAAAAAAA.js').expect(404);
      expect([missing.headers['content-type'], missing.text]).toEqual([
        'text/plain; charset=utf-8',
        'Not found: /console/assets/main-AAAAAAAA.js\n',
      ]);
    });

    it('loads in at most 250 KB of transfer, compressed, every byte from the service', async () => {
      const tab = await openSignedOut();
      const loaded: { url: string; encoding: string | null; bytes: number }[] = [];
      // Each request's sizes are read after it finished: all of them are awaited before the counts.
      const reading: Promise<void>[] = [];
      tab.page.on('requestfinished', (finished) => {
        reading.push(
          (async () => {
            const response = await finished.response();
            const sizes = await finished.sizes();
            loaded.push({
              url: new URL(finished.url()).pathname,
              encoding: (await response?.headerValue('content-encoding')) ?? null,
              bytes: sizes.responseHeadersSize + sizes.responseBodySize,
            });
          })(),
        );
      });
      await tab.page.reload();
      await tab.page.getByLabel('API key').waitFor();
      await tab.page.waitForLoadState('networkidle');
      await Promise.all(reading);
      // Besides its files, the page asks only whether a person is signed in and how one may sign in
      // (the first load's asking may also finish after the listener came: a set).
      const files = loaded.filter(({ url }) => url.startsWith('/console/'));
      expect(new Set(loaded.filter((file) => !files.includes(file)).map(({ url }) => url))).toEqual(
        new Set(['/api/v1/auth/session', '/api/v1/auth/methods']),
      );
      // The page, its stylesheet, its script.
      const order = (url: string) => ['/', '.css', '.js'].findIndex((end) => url.endsWith(end));
      files.sort((a, b) => order(a.url) - order(b.url));
      expect(files.map(({ url, encoding }) => [url, encoding])).toEqual([
        ['/console/', null],
        [expect.stringMatching(/^\/console\/assets\/main-[A-Z0-9]{8}\.css$/), 'br'],
        [expect.stringMatching(/^\/console\/assets\/main-[A-Z0-9]{8}\.js$/), 'br'],
      ]);
      const total = loaded.reduce((sum, { bytes }) => sum + bytes, 0);
      expect(total).toBeLessThanOrEqual(250 * 1024);
      expect(requestsElsewhere(tab, app())).toEqual([]);
    });
  });

  describe('signing in', () => {
    it('refuses an unknown key with the reason, and keeps nothing', async () => {
      const tab = await openSignedOut();
      await tab.page.getByLabel('API key').fill('not-a-key-the-service-knows-0123456789');
      await tab.page.getByRole('button', { name: 'Sign in' }).click();
      await expect(tab.page.getByRole('alert').textContent()).resolves.toBe(
        'The service does not know this key. Check that you copied all of it.',
      );
      expect((await storedEntries(tab.page))[0]).toBe(0);
    });

    it('keeps the key in this tab only (sessionStorage), with the networks it read, across a reload, and forgets them on sign-out', async () => {
      const tab = await open(app().apiKey);
      // The key, and the networks' names and symbols the relayers page read once for the sign-in.
      const names = () => tab.page.evaluate<string[]>('Object.keys(window.sessionStorage).sort()');
      const kept = ['relayer-console.api-key', 'relayer-console.signed-in.networks'];
      expect(await settledTo(names, kept)).toEqual(kept);
      expect(await storedEntries(tab.page)).toEqual([2, 0]);
      expect(await tab.context.cookies()).toEqual([]);
      await tab.page.reload();
      await tab.page.getByRole('button', { name: 'Sign out' }).waitFor();
      await tab.page.getByRole('button', { name: 'Sign out' }).click();
      await tab.page.getByLabel('API key').waitFor();
      expect((await storedEntries(tab.page))[0]).toBe(0);
      // Another tab never had it.
      const other = await openSignedOut();
      await other.page.getByLabel('API key').waitFor();
      expect((await storedEntries(other.page))[0]).toBe(0);
    });

    it('shows a key only the sections it may read', async () => {
      const key = (await createKey(app(), { permissions: ['relayers:read', 'audit:read'] })).key;
      const tab = await open(key);
      const sections = tab.page.getByRole('navigation', { name: 'Sections' }).getByRole('link');
      expect(await sections.allTextContents()).toEqual(['Relayers', 'Audit']);
    });

    it('sends a key whose secret stopped working back to sign-in, saying why', async () => {
      const created = await app().post('/api/v1/api-keys', {
        name: 'short-lived',
        permissions: ['relayers:read'],
      });
      const key = secrets.add((created.body as { data: { key: string } }).data.key);
      const tab = await open(key, '#/relayers');
      await app()
        .delete(`/api/v1/api-keys/${(created.body as { data: { id: string } }).data.id}`)
        .expect(200);
      // Revocation reaches every cache within 1 s (docs/reference/keys-and-audit.md).
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await tab.page.reload();
      await expect(tab.page.getByRole('alert').textContent()).resolves.toBe(
        'The key of this tab no longer works (revoked, rotated or expired): sign in again.',
      );
      expect((await storedEntries(tab.page))[0]).toBe(0);
    });
  });

  describe('the relayers table', () => {
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      const made = [
        await createRelayer(app(), 'evm', { name: 'evm one' }),
        await createRelayer(app(), 'solana', { name: 'solana one', paused: true }),
        await createRelayer(app(), 'stellar', { name: '<img src=x onerror=alert(1)> stellar' }),
      ];
      for (const relayer of made) ids[relayer.name as string] = relayer.id as string;
    });

    const rowNames = (tab: ConsoleTab) =>
      tab.page
        .getByRole('table', { name: /^Relayers/ })
        .locator('tbody th a')
        .allTextContents();

    it('lists what the API holds, with state, and renders names as text', async () => {
      const tab = await open(app().apiKey, '#/relayers');
      await tab.page.getByRole('table', { name: 'Relayers' }).waitFor();
      expect(await rowNames(tab)).toEqual(['evm one', 'solana one', '<img src=x onerror=alert(1)> stellar']);
      expect(await tab.page.locator('main img').count()).toBe(0);
      const states = await tab.page.locator('tbody .badge').allTextContents();
      expect(states).toEqual(['Enabled', 'Paused', 'Enabled']);
      expect(await seriousViolations(tab.page)).toEqual([]);
      await screenshot(tab.page, 'relayers');
    });

    it('filters by network type and by state through the API', async () => {
      const tab = await open(app().apiKey, '#/relayers');
      await tab.page.getByRole('table', { name: 'Relayers' }).waitFor();
      await tab.page.getByLabel('Network type').selectOption('solana');
      await tab.page.getByRole('table', { name: 'Relayers (filtered)' }).waitFor();
      expect(await rowNames(tab)).toEqual(['solana one']);
      await tab.page.getByRole('button', { name: 'Clear filters' }).click();
      await tab.page.getByLabel('State').selectOption('paused');
      await tab.page.getByRole('table', { name: 'Relayers (filtered)' }).waitFor();
      expect(await rowNames(tab)).toEqual(['solana one']);
      await tab.page.getByLabel('State').selectOption('disabled');
      await expect(tab.page.locator('.state.empty').textContent()).resolves.toBe(
        'No relayer matches these filters. Clear them to see every relayer.',
      );
      expect(tab.requests.filter((url) => url.includes('/api/v1/relayers?'))).toContainEqual(
        expect.stringContaining('state=disabled'),
      );
    });

    it('never shows a scoped key a relayer outside its scope', async () => {
      const key = (await createKey(app(), { permissions: ['relayers:read'], relayer_ids: [ids['evm one']] }))
        .key;
      const tab = await open(key, '#/relayers');
      await tab.page.getByRole('table', { name: 'Relayers' }).waitFor();
      expect(await rowNames(tab)).toEqual(['evm one']);
      await tab.page.goto(`${app().baseUrl}/console/#/relayers/${ids['solana one']}`);
      await tab.page.getByRole('heading', { level: 1 }).waitFor();
      expect(await tab.page.locator('main').textContent()).not.toContain('solana one');
    });

    it('pages through the API, 25 at a time', async () => {
      for (let i = 0; i < 24; i++)
        await createRelayer(app(), 'evm', { name: `bulk ${String(i).padStart(2, '0')}` });
      const tab = await open(app().apiKey, '#/relayers');
      await tab.page.getByRole('table', { name: 'Relayers' }).waitFor();
      const pager = tab.page.getByRole('navigation', { name: 'Relayers pages' });
      await expect(pager.locator('span').textContent()).resolves.toBe('1–25 of 27 (page 1 of 2)');
      await pager.getByRole('button', { name: 'Next' }).click();
      await pager.getByText('26–27 of 27 (page 2 of 2)').waitFor();
      expect(await rowNames(tab)).toEqual(['bulk 22', 'bulk 23']);
    });

    it('fits a 390 px wide screen: the page does not scroll sideways, the table does', async () => {
      const tab = await open(app().apiKey, '#/relayers', PHONE);
      await tab.page.getByRole('table', { name: 'Relayers' }).waitFor();
      expect(await documentWidth(tab.page)).toBeLessThanOrEqual(PHONE.width);
      expect(await seriousViolations(tab.page)).toEqual([]);
      await screenshot(tab.page, 'relayers');
    });
  });

  describe('the relayers table: network choices, states and balances', () => {
    const rows = (tab: ConsoleTab) =>
      tab.page.getByRole('table', { name: 'Relayers (filtered)' }).locator('tbody tr');
    /** The options of the network select (the second filter: its label's name is "Network" and its options'). */
    const NETWORK_OPTIONS = 'form.filters label:nth-of-type(3) select option';
    /** The texts of `selector` once they are `expected` (or after 5 s, whatever they are then). */
    const textsShown = async (tab: ConsoleTab, selector: string, expected: string[]) => {
      await settledTo(() => tab.page.locator(selector).allTextContents(), expected);
      await statusesShown(tab);
      return tab.page.locator(selector).allTextContents();
    };
    const namesShown = (tab: ConsoleTab, expected: string[]) => textsShown(tab, 'table tbody th a', expected);
    /** Waits for every row's status (balance, alert, last check) to be read. */
    const statusesShown = (tab: ConsoleTab) =>
      tab.page.locator('main').filter({ hasNotText: 'Loading' }).waitFor();
    const networkFilter = (tab: ConsoleTab) => tab.page.locator('form.filters label:nth-of-type(3) select');
    const filterBy = async (tab: ConsoleTab, type: string, network: string) => {
      await tab.page.getByLabel('Network type').selectOption(type);
      await networkFilter(tab).selectOption(network);
      await tab.page.getByRole('table', { name: 'Relayers (filtered)' }).waitFor();
    };

    it('offers the networks of the chosen network type only', async () => {
      const tab = await open(app().apiKey, '#/relayers');
      const all = ['Any', 'devnet', 'mainnet', 'mainnet-beta', 'sepolia', 'testnet'];
      expect(await textsShown(tab, NETWORK_OPTIONS, all)).toEqual(all);
      await tab.page.getByLabel('Network type').selectOption('solana');
      const solana = ['Any', 'devnet', 'mainnet-beta'];
      expect(await textsShown(tab, NETWORK_OPTIONS, solana)).toEqual(solana);
      await tab.page.getByLabel('Network type').selectOption('evm');
      const evm = ['Any', 'mainnet', 'sepolia'];
      expect(await textsShown(tab, NETWORK_OPTIONS, evm)).toEqual(evm);
      expect(await seriousViolations(tab.page)).toEqual([]);
    });

    it('shows unknown for a balance never read or whose last read failed, never the status’s 0', async () => {
      const never = await createRelayer(app(), 'evm', { name: 'never checked', network: 'mainnet' });
      const failed = await createRelayer(app(), 'evm', { name: 'read failed', network: 'mainnet' });
      const low = await createRelayer(app(), 'evm', { name: 'below min_balance', network: 'mainnet' });
      // A check that read 1.5 ETH, then one that could not reach a node: the balance it kept is stale.
      await handle.database.exec(
        "UPDATE relayer_checks SET checked_at = '2026-01-02 03:04:05.000', balance = '1500000000000000000' " +
          `WHERE relayer_id IN ('${failed.id as string}', '${low.id as string}')`,
      );
      await handle.database.exec(
        'UPDATE relayers SET system_disabled = 1, disabled_reason = ' +
          `'{"type":"RpcValidationFailed","details":"no RPC endpoint answered with the right chain"}' ` +
          `WHERE id = '${failed.id as string}'`,
      );
      await handle.database.exec(
        'UPDATE relayers SET system_disabled = 1, disabled_reason = ' +
          `'{"type":"BalanceCheckFailed","details":"balance 1500000000000000000 is below min_balance 2000000000000000000"}' ` +
          `WHERE id = '${low.id as string}'`,
      );
      const status = (
        await app()
          .get(`/api/v1/relayers/${never.id as string}/status`)
          .expect(200)
      ).body.data as { balance: string; checked_at: string | null };
      expect([status.balance, status.checked_at]).toEqual(['0', null]);
      const tab = await open(app().apiKey, '#/relayers');
      await filterBy(tab, 'evm', 'mainnet');
      expect(await namesShown(tab, ['never checked', 'read failed', 'below min_balance'])).toEqual([
        'never checked',
        'read failed',
        'below min_balance',
      ]);
      expect(await rows(tab).locator('td:nth-child(5)').allTextContents()).toEqual([
        'unknown',
        'unknown',
        '1.5 ETH',
      ]);
      expect(await seriousViolations(tab.page)).toEqual([]);
    });

    it('shows a relayer both paused and disabled as both, and the paused and the disabled filters find it', async () => {
      const both = await createRelayer(app(), 'stellar', { name: 'paused and disabled', paused: true });
      await handle.database.exec(
        'UPDATE relayers SET system_disabled = 1, disabled_reason = ' +
          `'{"type":"SequenceSyncFailed","details":"account not found"}' WHERE id = '${both.id as string}'`,
      );
      const tab = await open(app().apiKey, '#/relayers');
      await tab.page.getByLabel('Network type').selectOption('stellar');
      await tab.page.getByLabel('State').selectOption('paused');
      expect(await namesShown(tab, ['paused and disabled'])).toEqual(['paused and disabled']);
      expect(await rows(tab).locator('td .badge').allTextContents()).toEqual(['Disabled', 'Paused']);
      await tab.page.getByLabel('State').selectOption('disabled');
      const hash = () => Promise.resolve(new URL(tab.page.url()).hash.includes('state=disabled'));
      expect(await settledTo(hash, true)).toBe(true);
      expect(await namesShown(tab, ['paused and disabled'])).toEqual(['paused and disabled']);
      expect(await rows(tab).locator('td .badge').allTextContents()).toEqual(['Disabled', 'Paused']);
      await tab.page.getByLabel('State').selectOption('enabled');
      expect(await namesShown(tab, ['<img src=x onerror=alert(1)> stellar'])).toEqual([
        '<img src=x onerror=alert(1)> stellar',
      ]);
      expect(await seriousViolations(tab.page)).toEqual([]);
    });
  });

  it('has no serious accessibility problem on the sign-in page', async () => {
    const tab = await openSignedOut();
    await tab.page.getByLabel('API key').waitFor();
    expect(await seriousViolations(tab.page)).toEqual([]);
    await screenshot(tab.page, 'sign-in');
  });
});
