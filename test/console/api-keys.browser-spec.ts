import type { Locator, Page } from 'playwright-core';
import { absoluteTime, relativeTime } from '../../console/src/when';
import { createRelayer, uid } from '../factories';
import { as } from '../support/as-key';
import {
  DESKTOP,
  documentWidth,
  PHONE,
  screenshot,
  seriousViolations,
  storedEntries,
  useConsole,
} from '../support/browser';
import { grantsWith } from '../support/declared';
import { errorBody, expectError } from '../support/envelope';
import { secrets } from '../support/secrets';
import { useTestApp } from '../support/test-app';

interface Created {
  id: string;
  name: string;
  key: string;
  key_prefix: string;
}

/** Every permission of the service, in its order, then `*`: what a `*` key may give. */
const KEY_PATTERN = /^rk_[A-Za-z0-9_-]{43}$/;

/**
 * The locator's text once it reads `text` (an announcement replaced after a click), or what it reads
 * after 5 s: the caller asserts it, so a wrong text fails naming what was shown.
 */
async function settledText(locator: Locator, text: string): Promise<string | null> {
  const exactly = new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  await locator
    .filter({ hasText: exactly })
    .waitFor({ timeout: 5000 })
    .catch(() => undefined);
  return locator.textContent();
}

describe('the operator console: the API keys page', () => {
  const handle = useTestApp();
  const app = () => handle.current;
  const tabs = useConsole(app);
  const open = (key: string, hash = '#/api-keys', viewport = DESKTOP) => tabs.open(key, hash, viewport);
  const createKey = async (body: object, by = app().apiKey): Promise<Created> => {
    const res = await as(app(), by)
      .post('/api/v1/api-keys', { name: uid('key'), ...body })
      .expect(201);
    const data = (res.body as { data: Created }).data;
    secrets.add(data.key);
    return data;
  };
  const table = (page: Page) => page.getByRole('table', { name: 'API keys' });
  const row = (page: Page, name: string) =>
    table(page)
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader').getByText(name, { exact: true }) });
  const rowNames = (page: Page) => table(page).locator('tbody th > span[id]').allTextContents();
  const apiNames = async () =>
    (
      (await app().get('/api/v1/api-keys?page=1&per_page=25').expect(200)).body as { data: Created[] }
    ).data.map((k) => k.name);
  const secretShown = (page: Page) => page.locator('.new-secret .secret').textContent();

  it('says what to do when no key but the administrator exists, and on a page past the last', async () => {
    expect(await apiNames()).toEqual([]);
    const tab = await open(app().apiKey);
    await expect(tab.page.locator('.state.empty').textContent()).resolves.toBe(
      "No API keys yet: only the service's API_KEY can sign in. Create a key below for each client, with only the permissions it needs.",
    );
    await tab.page.goto(`${app().baseUrl}/console/#/api-keys?page=3`);
    expect(
      await settledText(tab.page.locator('.state.empty'), 'No keys on page 3. Go to the first page'),
    ).toBe('No keys on page 3. Go to the first page');
  });

  it('lists what the API holds: prefix, permissions, scope, addresses and dates', async () => {
    const team = await createKey({
      name: 'team-a dashboards',
      permissions: ['relayers:read', 'notifications:read'],
      relayer_ids: ['team-a-*', 'shared-1'],
      allowed_cidrs: ['203.0.113.0/24'],
      expires_at: '2030-01-01T00:00:00Z',
    });
    await createKey({ name: '<img src=x onerror=alert(1)>', permissions: ['metrics:read'] });
    const tab = await open(app().apiKey);
    await table(tab.page).waitFor();
    expect(await rowNames(tab.page)).toEqual(await apiNames());
    expect(await rowNames(tab.page)).toEqual(['team-a dashboards', '<img src=x onerror=alert(1)>']);
    expect(await tab.page.locator('main img').count()).toBe(0);
    const cells = await row(tab.page, 'team-a dashboards').locator('td').allInnerTexts();
    const created = (await app().get(`/api/v1/api-keys/${team.id}`).expect(200)).body as {
      data: Created & { created_at: string };
    };
    expect(cells.slice(0, 7)).toEqual([
      team.key_prefix,
      'relayers:read\nnotifications:read',
      'team-a-*\nshared-1',
      '203.0.113.0/24',
      // Relative to now, the absolute time and its zone on hover.
      expect.stringMatching(/^(just now|\d+ s ago)$/),
      relativeTime(Date.parse('2030-01-01T00:00:00Z'), Date.now()),
      'never',
    ]);
    expect(
      await row(tab.page, 'team-a dashboards')
        .locator('time')
        .evaluateAll((times) => times.map((t) => [t.getAttribute('datetime'), t.getAttribute('title')])),
    ).toEqual([
      [created.data.created_at, absoluteTime(Date.parse(created.data.created_at), 0)],
      ['2030-01-01T00:00:00.000Z', '2030-01-01 00:00:00 UTC+00:00'],
    ]);
    expect(await seriousViolations(tab.page)).toEqual([]);
    await screenshot(tab.page, 'api-keys');
  });

  it('creates a key with permissions, scope, addresses and expiry; shows it once, copies it, forgets it on Done', async () => {
    const tab = await open(app().apiKey);
    await tab.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app().baseUrl });
    const form = tab.page.getByRole('region', { name: 'Create a key' });
    // A `*` key may give every permission, and `*`.
    expect(await form.getByRole('group', { name: 'Permissions' }).getByRole('checkbox').count()).toBe(
      grantsWith().length,
    );
    expect(
      await form.getByRole('group', { name: 'Permissions' }).locator('label.check').allTextContents(),
    ).toEqual(grantsWith());
    await form.getByLabel('Name').fill('ci deploy');
    await form.getByRole('checkbox', { name: 'relayers:read' }).check();
    await form.getByRole('checkbox', { name: 'audit:read' }).check();
    await form.getByRole('radio', { name: 'Only these' }).check();
    await form.getByLabel('Relayer ids and prefixes ending in *, one per line').fill('team-b-*\nshared-1\n');
    await form.getByLabel('Allowed from (optional)').fill('127.0.0.0/8\n::1/128');
    await form.getByLabel('Expires (optional, your local time)').fill('2031-02-03T04:05');
    await form.getByRole('button', { name: 'Create key' }).click();

    const panel = tab.page.getByRole('region', { name: 'New key ci deploy' });
    await panel.waitFor();
    const key = secrets.add((await secretShown(tab.page)) ?? '');
    expect(key).toMatch(KEY_PATTERN);
    await expect(panel.locator('.warning').textContent()).resolves.toBe(
      'Copy it now: it is not shown again. The service keeps only its digest, and this page forgets it when you press Done.',
    );
    const listed = (await app().get('/api/v1/api-keys?per_page=100').expect(200)).body as {
      data: { name: string; id: string }[];
    };
    const id = listed.data.find((k) => k.name === 'ci deploy')?.id;
    const stored = (await app().get(`/api/v1/api-keys/${id}`).expect(200)).body as { data: object };
    expect(stored.data).toEqual({
      id,
      name: 'ci deploy',
      permissions: ['relayers:read', 'audit:read'],
      relayer_ids: ['team-b-*', 'shared-1'],
      allowed_cidrs: ['127.0.0.0/8', '::1/128'],
      created_at: expect.any(String),
      expires_at: '2031-02-03T04:05:00.000Z',
      last_used_at: null,
      key_prefix: key.slice(0, 8),
      created_by_key_id: null,
    });
    // The key works, with what the form asked for.
    await as(app(), key).get('/api/v1/audit').expect(200);
    expectError(await as(app(), key).get('/api/v1/signers'), 403, 'Forbidden');
    // The list shows it too, with its new row.
    await row(tab.page, 'ci deploy').waitFor();

    await panel.getByRole('button', { name: 'Copy' }).click();
    expect(await settledText(panel.getByRole('status'), 'Copied to the clipboard.')).toBe(
      'Copied to the clipboard.',
    );
    expect(await tab.page.evaluate<string>('navigator.clipboard.readText()')).toBe(key);

    await panel.getByRole('button', { name: 'Done' }).click();
    expect(await tab.page.locator('.new-secret').count()).toBe(0);
    expect(await tab.page.locator('body').textContent()).not.toContain(key);
    // Only the signed-in key is kept, in sessionStorage; the new one nowhere.
    expect(await storedEntries(tab.page)).toEqual([1, 0]);
    expect(await tab.page.evaluate<string>('JSON.stringify([{...sessionStorage}, {...localStorage}])')).toBe(
      JSON.stringify([{ 'relayer-console.api-key': app().apiKey }, {}]),
    );
  });

  it('selects the key and says "press Ctrl+C" where the browser has no clipboard', async () => {
    const tab = await open(app().apiKey);
    await tab.page.evaluate("Object.defineProperty(navigator, 'clipboard', { value: undefined })");
    const form = tab.page.getByRole('region', { name: 'Create a key' });
    await form.getByLabel('Name').fill('no clipboard');
    await form.getByRole('checkbox', { name: 'metrics:read' }).check();
    await form.getByRole('button', { name: 'Create key' }).click();
    const panel = tab.page.getByRole('region', { name: 'New key no clipboard' });
    await panel.getByRole('button', { name: 'Copy' }).click();
    const fallback =
      'This browser did not let the console copy it: the key is selected, press Ctrl+C (⌘C on a Mac).';
    expect(await settledText(panel.getByRole('status'), fallback)).toBe(fallback);
    const key = secrets.add((await secretShown(tab.page)) ?? '');
    expect(key).toMatch(KEY_PATTERN);
    expect(await tab.page.evaluate<string>('String(window.getSelection())')).toBe(key);
  });

  it('offers a narrow key only what it holds, and only keys it may rotate or revoke', async () => {
    const wide = await createKey({ name: 'wide', permissions: ['relayers:read', 'notifications:read'] });
    const narrow = await createKey({ name: 'narrow', permissions: ['relayers:read', 'api_keys:manage'] });
    const tab = await open(narrow.key);
    const form = tab.page.getByRole('region', { name: 'Create a key' });
    expect(
      await form.getByRole('group', { name: 'Permissions' }).locator('label.check').allTextContents(),
    ).toEqual(['relayers:read', 'api_keys:manage']);
    expect(await form.getByRole('checkbox', { name: '*' }).count()).toBe(0);
    // The administrator made `wide`: no control on that row; its own row it may rotate and revoke.
    await row(tab.page, 'wide').waitFor();
    expect(await row(tab.page, 'wide').getByRole('button').count()).toBe(0);
    await expect(row(tab.page, 'wide').locator('td.key-actions').textContent()).resolves.toBe(
      'Made by the administrator: only the administrator or the key itself may rotate or revoke it.',
    );
    expect(await row(tab.page, 'narrow').getByRole('button').allTextContents()).toEqual(['Rotate', 'Revoke']);
    expect(await row(tab.page, 'narrow').locator('.badge').textContent()).toBe('this console');
    await app().get(`/api/v1/api-keys/${wide.id}`).expect(200);
  });

  // docs/reference/keys-and-audit.md#44-authority-over-keys-comes-from-creating-them
  describe('offers Rotate and Revoke only where the API allows them', () => {
    const roots: Created[] = [];
    /** A key for these tests, revoked after each with every key it made: the next tests find the list as it was. */
    const made = async (body: object, by = app().apiKey): Promise<Created> => {
      const key = await createKey(body, by);
      if (by === app().apiKey) roots.push(key);
      return key;
    };
    afterEach(async () => {
      for (const key of roots.splice(0)) await app().delete(`/api/v1/api-keys/${key.id}`);
    });

    it('to a manager: on the keys it made and their keys, not on a key the administrator made', async () => {
      const manager = await made({ name: 'manager', permissions: ['relayers:read', 'api_keys:manage'] });
      // It holds every permission of this one and sees every relayer: the old rule offered it.
      const adminMade = await made({ name: 'admin made', permissions: ['relayers:read'] });
      const child = await made(
        { name: 'child', permissions: ['relayers:read', 'api_keys:manage'] },
        manager.key,
      );
      const grandchild = await made({ name: 'grandchild', permissions: ['relayers:read'] }, child.key);
      // A key another manager made, holding what this one holds.
      const other = await made({ name: 'other manager', permissions: ['relayers:read', 'api_keys:manage'] });
      await made({ name: 'made by other', permissions: ['relayers:read'] }, other.key);

      const tab = await open(manager.key);
      await row(tab.page, 'made by other').waitFor();
      const buttons = (name: string) => row(tab.page, name).getByRole('button').allTextContents();
      expect(await buttons('manager')).toEqual(['Rotate', 'Revoke']);
      expect(await buttons('child')).toEqual(['Rotate', 'Revoke']);
      expect(await buttons('grandchild')).toEqual(['Rotate', 'Revoke']);
      expect(await buttons('admin made')).toEqual([]);
      expect(await buttons('other manager')).toEqual([]);
      expect(await buttons('made by other')).toEqual([]);
      const actions = (name: string) => row(tab.page, name).locator('td.key-actions').textContent();
      await expect(actions('admin made')).resolves.toBe(
        'Made by the administrator: only the administrator or the key itself may rotate or revoke it.',
      );
      await expect(actions('made by other')).resolves.toBe(
        'Made by another key: only the key that made it, the keys that made that one, or the administrator may rotate or revoke it.',
      );
      expect(await seriousViolations(tab.page)).toEqual([]);
      // The API agrees: to this manager the key the administrator made is an unknown one.
      expectError(
        await as(app(), manager.key).delete(`/api/v1/api-keys/${adminMade.id}`),
        404,
        'API key not found',
      );

      // What it is offered works, from the keyboard: rotate the child, revoke the grandchild.
      await row(tab.page, 'child').getByRole('button', { name: 'Rotate' }).focus();
      await tab.page.keyboard.press('Enter');
      await row(tab.page, 'child').getByRole('button', { name: 'Rotate child' }).click();
      await tab.page.getByRole('region', { name: 'New secret for child' }).waitFor();
      secrets.add((await secretShown(tab.page)) ?? '');
      // The form's default overlap: the old secret keeps working for an hour.
      await as(app(), child.key).get('/api/v1/relayers').expect(200);
      await tab.page.getByRole('button', { name: 'Done' }).click();
      await row(tab.page, 'grandchild').getByRole('button', { name: 'Revoke' }).focus();
      await tab.page.keyboard.press('Enter');
      await row(tab.page, 'grandchild')
        .getByRole('button', { name: 'Revoke grandchild', exact: true })
        .click();
      await expect(tab.page.locator('main > .outcome.ok').textContent()).resolves.toBe(
        'API key revoked successfully',
      );
      await row(tab.page, 'grandchild').waitFor({ state: 'detached' });
      expectError(await app().get(`/api/v1/api-keys/${grandchild.id}`), 404, 'API key not found');
    });

    it('offers nothing on a key whose creator is not on the page: it cannot tell who made it', async () => {
      const listed = (await app().get('/api/v1/api-keys?per_page=1').expect(200)).body as {
        pagination: { total_items: number };
      };
      const before = listed.pagination.total_items;
      expect(before).toBeLessThan(23);
      const manager = await made({
        name: 'pager manager',
        permissions: ['relayers:read', 'api_keys:manage'],
      });
      const child = await made(
        { name: 'pager child', permissions: ['relayers:read', 'api_keys:manage'] },
        manager.key,
      );
      // 25 a page: the keys there were, the manager, its child and fillers fill the first; the
      // grandchild, made by the child, is alone on the second.
      for (let i = before + 2; i < 25; i += 1)
        await made({ name: `filler ${i}`, permissions: ['relayers:read'] });
      await made({ name: 'pager grandchild', permissions: ['relayers:read'] }, child.key);
      const tab = await open(manager.key, '#/api-keys?page=2');
      await row(tab.page, 'pager grandchild').waitFor();
      expect(await rowNames(tab.page)).toEqual(['pager grandchild']);
      expect(await row(tab.page, 'pager grandchild').getByRole('button').count()).toBe(0);
      await expect(row(tab.page, 'pager grandchild').locator('td.key-actions').textContent()).resolves.toBe(
        'Made by a key not on this page: the console cannot tell whether this key may rotate or revoke it.',
      );
      // The key it made itself it may rotate and revoke, on any page.
      await tab.page.goto(`${app().baseUrl}/console/#/api-keys?page=1`);
      await row(tab.page, 'pager child').waitFor();
      expect(await row(tab.page, 'pager child').getByRole('button').allTextContents()).toEqual([
        'Rotate',
        'Revoke',
      ]);
      expect(await seriousViolations(tab.page)).toEqual([]);
    });
  });

  it("keeps a scoped key inside its relayers: its scope offered, the API's 400 and 403 shown as they are", async () => {
    await createRelayer(app(), 'evm', { id: 'team-a-1', name: 'team a one' });
    await createRelayer(app(), 'evm', { id: 'other-1', name: 'other one' });
    const scoped = await createKey({
      name: 'team-a',
      permissions: ['relayers:read', 'api_keys:manage'],
      relayer_ids: ['team-a-*'],
    });
    const tab = await open(scoped.key);
    const form = tab.page.getByRole('region', { name: 'Create a key' });
    expect(await form.getByRole('radio').count()).toBe(0);
    await expect(form.locator('fieldset').nth(1).locator('.help').textContent()).resolves.toBe(
      "This key sees only team-a-*: the new key's relayers must be inside them.",
    );
    const scope = form.getByLabel('Relayer ids and prefixes ending in *, one per line');
    expect(await scope.inputValue()).toBe('team-a-*');
    // The relayers it may pick are those it sees.
    expect(await form.getByLabel('Add a relayer').locator('option').allTextContents()).toEqual([
      'Choose a relayer',
      'team a one (team-a-1)',
    ]);
    await form.getByLabel('Name').fill('team-a reader');
    await form.getByRole('checkbox', { name: 'relayers:read' }).check();
    const before = await apiNames();

    await scope.fill('other-1');
    await form.getByRole('button', { name: 'Create key' }).click();
    await expect(form.getByRole('alert').textContent()).resolves.toBe('Forbidden');
    await scope.fill('bad id!');
    await form.getByRole('button', { name: 'Create key' }).click();
    const badEntry =
      "relayer_ids[0] must be a relayer id (1 to 36 characters of letters, digits, '-' or '_') or a prefix of 1 to 35 such characters ending in '*'";
    // Beside the field it names (console/src/field-errors.ts).
    expect(await settledText(form.locator('#scope-ids-error'), badEntry)).toBe(badEntry);
    await expect(form.getByRole('alert').textContent()).resolves.toBe(
      'Nothing changed: the API refused what is said beside the fields.',
    );
    expect(await apiNames()).toEqual(before);

    await scope.fill('');
    await form.getByLabel('Add a relayer').selectOption('team-a-1');
    await form.getByRole('button', { name: 'Add' }).click();
    expect(await scope.inputValue()).toBe('team-a-1');
    await form.getByRole('button', { name: 'Create key' }).click();
    const key = secrets.add(
      (await tab.page
        .getByRole('region', { name: 'New key team-a reader' })
        .locator('.secret')
        .textContent()) ?? '',
    );
    const seen = (await as(app(), key).get('/api/v1/relayers').expect(200)).body as {
      data: { id: string }[];
    };
    expect(seen.data.map((r) => r.id)).toEqual(['team-a-1']);
    expect(await apiNames()).toEqual([...before, 'team-a reader']);
  });

  it('rotates another key: the new secret shown once, the old one refused after an overlap of 0', async () => {
    const target = await createKey({ name: 'rotate me', permissions: ['relayers:read'] });
    const tab = await open(app().apiKey);
    await row(tab.page, 'rotate me').getByRole('button', { name: 'Rotate' }).click();
    const overlap = row(tab.page, 'rotate me').getByLabel('Old secret keeps working for (seconds)');
    expect(await overlap.inputValue()).toBe('3600');
    await overlap.fill('0');
    await row(tab.page, 'rotate me').getByRole('button', { name: 'Rotate rotate me' }).click();
    // Without overlap, asked first (test/console/confirmations.browser-spec.ts says what).
    await tab.page.getByRole('button', { name: 'Rotate rotate me now' }).click();
    const panel = tab.page.getByRole('region', { name: 'New secret for rotate me' });
    await panel.waitFor();
    const key = secrets.add((await secretShown(tab.page)) ?? '');
    expect(key).toMatch(KEY_PATTERN);
    expect(key).not.toBe(target.key);
    expectError(await as(app(), target.key).get('/api/v1/relayers'), 401, 'Unauthorized');
    await as(app(), key).get('/api/v1/relayers').expect(200);
    const stored = (await app().get(`/api/v1/api-keys/${target.id}`).expect(200)).body as {
      data: { key_prefix: string };
    };
    expect(stored.data.key_prefix).toBe(key.slice(0, 8));
    await row(tab.page, 'rotate me')
      .locator('td')
      .first()
      .getByText(key.slice(0, 8), { exact: true })
      .waitFor();
    // The signed-in administrator is unchanged.
    expect(await storedEntries(tab.page)).toEqual([1, 0]);
    expect(await tab.page.evaluate<string>("sessionStorage.getItem('relayer-console.api-key')")).toBe(
      app().apiKey,
    );
    expect(await seriousViolations(tab.page)).toEqual([]);
  });

  it('rotates the signed-in key itself and goes on with the new secret', async () => {
    const self = await createKey({ name: 'console self', permissions: ['api_keys:manage'] });
    const tab = await open(self.key);
    await row(tab.page, 'console self').getByRole('button', { name: 'Rotate' }).click();
    await expect(row(tab.page, 'console self').locator('.row-form .help').textContent()).resolves.toBe(
      '3600 (an hour) gives its clients that long to take the new one; 0 stops it at once (a leaked key); at most 604800 (a week). This is the key this console is signed in with: the console switches to the new secret, so it stays signed in.',
    );
    await row(tab.page, 'console self').getByLabel('Old secret keeps working for (seconds)').fill('0');
    await row(tab.page, 'console self').getByRole('button', { name: 'Rotate console self' }).click();
    await tab.page.getByRole('button', { name: 'Rotate console self now' }).click();
    const panel = tab.page.getByRole('region', { name: 'New secret for console self' });
    await panel.waitFor();
    await expect(panel.locator('p').nth(1).textContent()).resolves.toBe(
      'This is the key this console is signed in with: the console now uses the new secret in this tab.',
    );
    const key = secrets.add((await secretShown(tab.page)) ?? '');
    expect(await tab.page.evaluate<string>("sessionStorage.getItem('relayer-console.api-key')")).toBe(key);
    expectError(await as(app(), self.key).get('/api/v1/api-keys'), 401, 'Unauthorized');
    // The list reloaded with the new secret, and a reload keeps the tab signed in.
    await row(tab.page, 'console self')
      .locator('td')
      .first()
      .getByText(key.slice(0, 8), { exact: true })
      .waitFor();
    await tab.page.reload();
    await table(tab.page).waitFor();
    expect(await tab.page.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
  });

  it('revokes a key after a second, named button; the API then answers 404 for it', async () => {
    const target = await createKey({ name: 'revoke me', permissions: ['relayers:read'] });
    const tab = await open(app().apiKey);
    await row(tab.page, 'revoke me').getByRole('button', { name: 'Revoke' }).click();
    // Nothing happened yet: the confirmation has the focus on Cancel.
    await app().get(`/api/v1/api-keys/${target.id}`).expect(200);
    expect(await tab.page.evaluate<string | undefined>('document.activeElement?.textContent')).toBe('Cancel');
    expect(await seriousViolations(tab.page)).toEqual([]);
    await row(tab.page, 'revoke me').getByRole('button', { name: 'Revoke revoke me', exact: true }).click();
    await expect(tab.page.locator('main > .outcome.ok').textContent()).resolves.toBe(
      'API key revoked successfully',
    );
    // The list is read again: the row leaves it, and the page shows what the API now holds.
    await row(tab.page, 'revoke me').waitFor({ state: 'detached' });
    await table(tab.page).waitFor();
    expect(await rowNames(tab.page)).toEqual(await apiNames());
    expect(await rowNames(tab.page)).not.toContain('revoke me');
    expectError(await app().get(`/api/v1/api-keys/${target.id}`), 404, 'API key not found');
    expectError(await as(app(), target.key).get('/api/v1/relayers'), 401, 'Unauthorized');
  });

  it('tells a key without api_keys:manage that it may not open the page, and offers no control', async () => {
    const reader = await createKey({ name: 'reader', permissions: ['relayers:read'] });
    const tab = await open(reader.key);
    await expect(tab.page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('API keys');
    await expect(tab.page.getByRole('alert').textContent()).resolves.toBe(
      'This key may not open API keys: it needs the api_keys:manage permission (403 Forbidden).Sign in with a key that holds it, or go to Relayers.',
    );
    expect(await tab.page.locator('main button, main form, main table').count()).toBe(0);
    expect(
      await tab.page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents(),
    ).toEqual(['Relayers']);
    expect(tab.requests.filter((url) => url.includes('/api/v1/api-keys?'))).toEqual([]);
    // The API refuses it anyway.
    expect((await as(app(), reader.key).get('/api/v1/api-keys')).body).toEqual(errorBody('Forbidden'));
  });

  it('fits a 390 px wide screen with the form and a new key shown', async () => {
    await createKey({ name: 'phone', permissions: ['relayers:read'], relayer_ids: ['team-a-*'] });
    const tab = await open(app().apiKey, '#/api-keys', PHONE);
    await table(tab.page).waitFor();
    const form = tab.page.getByRole('region', { name: 'Create a key' });
    await form.getByLabel('Name').fill('phone made');
    await form.getByRole('checkbox', { name: 'relayers:read' }).check();
    await form.getByRole('radio', { name: 'Only these' }).check();
    await form.getByRole('button', { name: 'Create key' }).click();
    expect(
      await settledText(
        form.locator('#scope-ids-error'),
        "relayer_ids must be a non-empty array of at most 100 relayer ids or prefixes ending in '*'",
      ),
    ).toBe("relayer_ids must be a non-empty array of at most 100 relayer ids or prefixes ending in '*'");
    await expect(form.getByRole('alert').textContent()).resolves.toBe(
      'Nothing changed: the API refused what is said beside the fields.',
    );
    await form.getByRole('radio', { name: 'All relayers' }).check();
    await form.getByRole('button', { name: 'Create key' }).click();
    const panel = tab.page.getByRole('region', { name: 'New key phone made' });
    await panel.waitFor();
    secrets.add((await secretShown(tab.page)) ?? '');
    expect(await documentWidth(tab.page)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(tab.page)).toEqual([]);
    await screenshot(tab.page, 'api-keys');
  });
});
