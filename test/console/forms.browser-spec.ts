import type { Locator, Page } from 'playwright-core';
import { createKey, relayerBody, uid } from '../factories';
import { defaultCatalogue, useTestApp } from '../support/test-app';
import { DESKTOP, PHONE, documentWidth, seriousViolations, settledTo, useConsole } from '../support/browser';

interface Relayer {
  id: string;
  name: string;
  network: string;
  network_type: string;
  signer_id: string;
  notification_id: string | null;
  paused: boolean;
  custom_rpc_urls: { url: string; weight: number }[] | null;
  policies: Record<string, unknown> | null;
}

/** The text of an element once it is there (a problem shown after an answer), or '' after 5 s. */
async function textOf(locator: Locator): Promise<string> {
  await locator.waitFor({ timeout: 5000 }).catch(() => undefined);
  return (await locator.count()) > 0 ? ((await locator.textContent()) ?? '') : '';
}

/** Whether the control with that id says it is wrong, and which descriptions it points at. */
const described = (page: Page, id: string) =>
  page
    .locator(`[id="${id}"]`)
    .evaluate((el) => [el.getAttribute('aria-invalid'), el.getAttribute('aria-describedby')]);

describe('the operator console: forms for what operators fix', () => {
  const handle = useTestApp();
  const app = () => handle.current;
  const tabs = useConsole(app);
  /** The console at `hash`, once the shell has moved to its first section (which would replace the hash). */
  const open = async (key: string, hash: string, viewport = DESKTOP) => {
    const tab = await tabs.open(key, '', viewport);
    await settledTo(() => tab.page.evaluate<string>('window.location.hash'), '#/relayers');
    await tab.page.goto(`${app().baseUrl}/console/${hash}`);
    return tab;
  };
  const relayerNow = async (id: string) =>
    (await app().get(`/api/v1/relayers/${id}`).expect(200)).body.data as Relayer;
  const relayerCount = async () =>
    (
      (await app().get('/api/v1/relayers?per_page=1').expect(200)).body as {
        pagination: { total_items: number };
      }
    ).pagination.total_items;
  const refusal = async (path: string, body: object, method: 'post' | 'patch' | 'put' = 'post') =>
    ((await app()[method](path, body).expect(400)).body as { message: string }).message;

  describe('relayers', () => {
    const createForm = async (page: Page) => {
      await page.locator('summary', { hasText: 'Create a relayer' }).click();
      return page.getByRole('form', { name: 'Create a relayer' });
    };

    it('creates a relayer from every field: network choices follow the type, min balance typed in native units', async () => {
      const hook = uid('hook');
      await app().post('/api/v1/notifications', { id: hook, url: 'https://hooks.example.com/a' }).expect(201);
      const signer = defaultCatalogue().nextSigner();
      const tab = await open(app().apiKey, '#/relayers');
      const form = await createForm(tab.page);
      const network = form.getByLabel('Network', { exact: true });
      expect(await network.locator('option').allTextContents()).toEqual([
        'Choose a evm network',
        'mainnet',
        'sepolia',
      ]);
      await form.getByLabel('Network type').selectOption('solana');
      expect(await network.locator('option').allTextContents()).toEqual([
        'Choose a solana network',
        'devnet',
        'mainnet-beta',
      ]);
      await form.getByLabel('Network type').selectOption('evm');
      await form.getByLabel('Id (optional)').fill('made-in-console');
      await form.getByLabel('Name').fill('Made in the console');
      await network.selectOption('sepolia');
      await form.getByLabel('Signer').fill(signer);
      await form.getByLabel('Notification target').fill(hook);
      await form.getByLabel('Paused: it takes no work until resumed').check();
      await form
        .getByLabel('Policies (JSON)')
        .fill('{"eip1559_pricing": true, "gas_price_cap": "300000000000"}');
      await form.getByLabel('Minimum balance (ETH)').fill('0.05');
      expect(await form.locator('#new-relayer-min-balance-help').textContent()).toBe(
        'Sends 50000000000000000 wei.',
      );
      expect(await seriousViolations(tab.page)).toEqual([]);
      await form.getByRole('button', { name: 'Create relayer' }).click();
      // Its page opens: what the API made of the form.
      await tab.page.getByRole('heading', { level: 1, name: 'Made in the console' }).waitFor();
      expect(await tab.page.evaluate<string>('window.location.hash')).toBe('#/relayers/made-in-console');
      expect(await relayerNow('made-in-console')).toMatchObject({
        id: 'made-in-console',
        name: 'Made in the console',
        network: 'sepolia',
        network_type: 'evm',
        signer_id: signer,
        notification_id: hook,
        paused: true,
        custom_rpc_urls: null,
        policies: { eip1559_pricing: true, gas_price_cap: 300000000000, min_balance: 50000000000000000 },
      });
    });

    it("shows each of the API's refusals beside the field it names, and creates nothing", async () => {
      const before = await relayerCount();
      const tab = await open(app().apiKey, '#/relayers');
      const form = await createForm(tab.page);
      await form.getByLabel('Id (optional)').fill('not an id');
      await form.getByLabel('Name').fill('   ');
      await form.getByLabel('Network', { exact: true }).selectOption('sepolia');
      await form.getByLabel('Signer').fill('nobody');
      await form.getByLabel('Policies (JSON)').fill('{"gas_price_cap": -1}');
      await form.getByRole('button', { name: 'Create relayer' }).click();
      const message = await refusal('/api/v1/relayers', {
        id: 'not an id',
        name: '   ',
        network_type: 'evm',
        network: 'sepolia',
        signer_id: 'nobody',
        paused: false,
        policies: { gas_price_cap: -1 },
      });
      const problems = message.split('; ');
      expect(problems).toEqual([
        'Signer with ID nobody not found',
        "id must be 1 to 36 characters of letters, digits, '-' or '_'",
        'name must be 1 to 255 characters, not only whitespace',
        'policies.gas_price_cap must be a whole number >= 0 (a JSON number or a string of decimal digits, at most 1000 digits)',
      ]);
      expect(await textOf(form.locator('#new-relayer-signer-error'))).toBe(problems[0]);
      expect(await textOf(form.locator('#new-relayer-id-error'))).toBe(problems[1]);
      expect(await textOf(form.locator('#new-relayer-name-error'))).toBe(problems[2]);
      expect(await textOf(form.locator('#new-relayer-policies-error'))).toBe(problems[3]);
      expect(await form.getByRole('alert').textContent()).toBe(
        'Nothing changed: the API refused what is said beside the fields.',
      );
      expect(await described(tab.page, 'new-relayer-name')).toEqual(['true', 'new-relayer-name-error']);
      // What is not JSON, or not an amount, is not sent; the field says why.
      await form.getByLabel('Policies (JSON)').fill('{"eip1559_pricing": tru');
      await form.getByLabel('Minimum balance (ETH)').fill('1,5');
      await form.getByRole('button', { name: 'Create relayer' }).click();
      expect(await textOf(form.locator('#new-relayer-min-balance-error'))).toBe(
        'Not an amount: write digits with at most one decimal point, such as 0.05 (no sign, no commas, no exponent).',
      );
      expect(await form.locator('#new-relayer-policies-error').textContent()).toMatch(
        /^policies is not JSON: /,
      );
      expect(await form.getByRole('alert').textContent()).toBe(
        'Nothing sent: correct what is said beside the fields.',
      );
      // A number a browser cannot hold exactly is not sent either.
      await form.getByLabel('Minimum balance (ETH)').fill('');
      await form.getByLabel('Policies (JSON)').fill('{"gas_price_cap": 300000000000000000001}');
      await form.getByRole('button', { name: 'Create relayer' }).click();
      await settledTo(() => form.locator('#new-relayer-min-balance-error').count(), 0);
      expect(await form.locator('#new-relayer-policies-error').textContent()).toBe(
        'policies holds a whole number beyond 2^53 − 1 (300000000000000000000), which a browser cannot send exactly: write an EVM amount as a string of digits ("300000000000000000000")',
      );
      expect(await relayerCount()).toBe(before);
    });

    it('edits a relayer: only what changed is sent, with If-Match; a 400 beside its field', async () => {
      const made = (
        await app()
          .post(
            '/api/v1/relayers',
            relayerBody('evm', {
              name: 'to edit',
              custom_rpc_urls: [{ url: 'https://user:pw@rpc.example.com/v2/SECRET-KEY', weight: 80 }],
              policies: { eip1559_pricing: true, min_balance: 100 },
            }),
          )
          .expect(201)
      ).body.data as Relayer;
      const tab = await open(app().apiKey, `#/relayers/${made.id}`);
      await tab.page.getByRole('button', { name: 'Edit' }).click();
      const form = tab.page.getByRole('form', { name: 'Edit relayer to edit' });
      // The form starts from what was read: the URL masked, min_balance in native units.
      expect(await form.getByLabel('URL 1').inputValue()).toBe('https://rpc.example.com/v2/***');
      expect(await form.getByLabel('Minimum balance (ETH)').inputValue()).toBe('0.0000000000000001');
      expect(await form.getByLabel('Policies (JSON)').inputValue()).toBe('{\n  "eip1559_pricing": true\n}');
      await form.getByRole('button', { name: 'Add a URL' }).click();
      await form.getByLabel('URL 2').fill('ftp://backup.example.com');
      await form.getByRole('button', { name: 'Save' }).click();
      const message = await refusal(
        `/api/v1/relayers/${made.id}`,
        {
          custom_rpc_urls: [
            { url: 'https://rpc.example.com/v2/***', weight: 80 },
            { url: 'ftp://backup.example.com', weight: 100 },
          ],
        },
        'patch',
      );
      expect(message).toBe('custom_rpc_urls[1].url must be an http or https URL');
      expect(await textOf(form.locator(`#edit-${made.id}-rpc-1-error`))).toBe(message);
      expect(await described(tab.page, `edit-${made.id}-rpc-1-url`)).toEqual([
        'true',
        `edit-${made.id}-rpc-1-error`,
      ]);
      await form.getByLabel('URL 2').fill('https://backup.example.com/rpc');
      await form.getByLabel('Weight 2').fill('20');
      await form.getByLabel('Name').fill('edited');
      await form.getByLabel('Policies (JSON)').fill('{"private_transactions": true}');
      await form.getByLabel('Minimum balance (ETH)').fill('2');
      expect(await seriousViolations(tab.page)).toEqual([]);
      await form.getByRole('button', { name: 'Save' }).click();
      await tab.page.getByRole('heading', { level: 1, name: 'edited' }).waitFor();
      expect(
        await tab.page.locator('section[aria-labelledby="relayer-facts"] > .outcome').textContent(),
      ).toBe('Saved.');
      const now = await relayerNow(made.id);
      expect(now).toMatchObject({
        name: 'edited',
        paused: false,
        // The masked URL went back as read: the service kept the stored one behind it.
        custom_rpc_urls: [
          { url: 'https://rpc.example.com/v2/***', weight: 80 },
          { url: 'https://backup.example.com/***', weight: 20 },
        ],
        policies: { private_transactions: true, min_balance: 2000000000000000000 },
      });
    });

    it('says a relayer changed since the form read it (412), and reads it again', async () => {
      const made = (
        await app()
          .post('/api/v1/relayers', relayerBody('evm', { name: 'racing' }))
          .expect(201)
      ).body.data as Relayer;
      const tab = await open(app().apiKey, `#/relayers/${made.id}`);
      await tab.page.getByRole('button', { name: 'Edit' }).click();
      const form = tab.page.getByRole('form', { name: 'Edit relayer racing' });
      await form.getByLabel('Name').fill('mine');
      // Someone else changes it meanwhile.
      await app().patch(`/api/v1/relayers/${made.id}`, { name: 'theirs' }).expect(200);
      await form.getByRole('button', { name: 'Save' }).click();
      expect(await textOf(form.getByRole('alert'))).toBe(
        'Nothing saved: the relayer was changed elsewhere since this form read it (412 Precondition Failed). Read it again, then make your change again.',
      );
      expect((await relayerNow(made.id)).name).toBe('theirs');
      await form.getByRole('button', { name: 'Read it again' }).click();
      const again = tab.page.getByRole('form', { name: 'Edit relayer theirs' });
      expect(await settledTo(() => again.getByLabel('Name').inputValue(), 'theirs')).toBe('theirs');
      await again.getByLabel('Name').fill('mine after all');
      await again.getByRole('button', { name: 'Save' }).click();
      await tab.page.getByRole('heading', { level: 1, name: 'mine after all' }).waitFor();
      expect((await relayerNow(made.id)).name).toBe('mine after all');
    });
  });

  describe('notification targets', () => {
    it('creates a target; a URL the policy refuses is said beside the URL', async () => {
      const tab = await open(app().apiKey, '#/notifications');
      await tab.page.locator('summary', { hasText: 'Create a target' }).click();
      const form = tab.page.getByRole('form', { name: 'Create a target' });
      await form.getByLabel('Id (optional)').fill('console-hook');
      await form.getByLabel('URL').fill('ftp://hooks.example.com/x');
      await form.getByLabel('Signing key (optional)').fill('short');
      await form.getByRole('button', { name: 'Create target' }).click();
      const [key, url] = (
        await refusal('/api/v1/notifications', {
          id: 'console-hook',
          url: 'ftp://hooks.example.com/x',
          signing_key: 'short',
        })
      ).split('; ');
      expect(await textOf(form.locator('#new-target-url-error'))).toBe(url);
      expect(await textOf(form.locator('#new-target-key-error'))).toBe(key);
      expect(url).toMatch(/^url /);
      expect(key).toMatch(/^signing_key /);
      await app().get('/api/v1/notifications/console-hook').expect(404);
      await form.getByLabel('URL').fill('https://hooks.example.com/console');
      await form.getByLabel('Signing key (optional)').fill('k'.repeat(32));
      await form.getByRole('button', { name: 'Create target' }).click();
      await tab.page.getByRole('heading', { level: 1, name: 'Notification target console-hook' }).waitFor();
      expect((await app().get('/api/v1/notifications/console-hook').expect(200)).body.data).toEqual({
        id: 'console-hook',
        type: 'webhook',
        url: 'https://hooks.example.com/console',
        has_signing_key: true,
      });
    });

    it("edits a target's URL and signing key, and its subscription, each refusal beside its field", async () => {
      const id = uid('hook');
      await app().post('/api/v1/notifications', { id, url: 'https://hooks.example.com/old' }).expect(201);
      const tab = await open(app().apiKey, `#/notifications/${id}`);
      await tab.page.getByRole('button', { name: 'Edit', exact: true }).click();
      const form = tab.page.getByRole('form', { name: `Edit target ${id}` });
      await form.getByLabel('URL').fill('https://hooks.example.com/new');
      await form.getByLabel('Set a key').check();
      await form.getByLabel('New signing key').fill('too short');
      await form.getByRole('button', { name: 'Save' }).click();
      const message = await refusal(`/api/v1/notifications/${id}`, { signing_key: 'too short' }, 'patch');
      expect(await textOf(form.locator('#target-key-error'))).toBe(message);
      await form.getByLabel('New signing key').fill('s'.repeat(40));
      await form.getByRole('button', { name: 'Save' }).click();
      await form.waitFor({ state: 'detached' });
      expect((await app().get(`/api/v1/notifications/${id}`).expect(200)).body.data).toEqual({
        id,
        type: 'webhook',
        url: 'https://hooks.example.com/new',
        has_signing_key: true,
      });
      await settledTo(
        () => tab.page.locator('dl.facts dd.mono').first().textContent(),
        'https://hooks.example.com/new',
      );

      await tab.page.getByRole('button', { name: 'Edit subscription' }).click();
      const sub = tab.page.getByRole('form', { name: 'Edit the subscription' });
      await sub.getByLabel('Only these').check();
      await sub.getByLabel('relayer_deleted').check();
      await sub.getByLabel('relayer_low_balance').check();
      await sub.getByLabel('These relayers too').check();
      await sub.getByLabel('Relayer ids, one per line').fill('r-1\nnot an id');
      expect(await seriousViolations(tab.page)).toEqual([]);
      await sub.getByRole('button', { name: 'Save subscription' }).click();
      const refused = await refusal(
        `/api/v1/notifications/${id}/subscription`,
        { events: ['relayer_deleted', 'relayer_low_balance'], relayer_ids: ['r-1', 'not an id'] },
        'put',
      );
      expect(refused).toBe(
        `relayer_ids[1] must be 1 to 36 characters of letters, digits, '-' or '_', or "*"`,
      );
      expect(await textOf(sub.locator('#subscription-relayers-error'))).toBe(refused);
      await sub.getByLabel('Relayer ids, one per line').fill('r-1\nr-2');
      await sub.getByRole('button', { name: 'Save subscription' }).click();
      await tab.page.getByText('Subscription saved: it applies to the changes made from now on.').waitFor();
      expect((await app().get(`/api/v1/notifications/${id}/subscription`).expect(200)).body.data).toEqual({
        events: ['relayer_deleted', 'relayer_low_balance'],
        relayer_ids: ['r-1', 'r-2'],
      });
    });
  });

  describe("a network's RPC URLs", () => {
    const sepolia = async () =>
      (await app().get('/api/v1/networks/evm:sepolia').expect(200)).body.data as {
        rpc_urls: { url: string; weight: number }[];
      };

    it('keeps a masked URL left as read, refuses one edited but still masked, and shows the API 400 beside its row', async () => {
      const tab = await open(app().apiKey, '#/networks/evm:sepolia');
      await tab.page.getByRole('button', { name: 'Edit RPC URLs of sepolia' }).click();
      const form = tab.page.getByRole('form', { name: 'RPC URLs of sepolia' });
      expect(await form.getByLabel('URL 1').inputValue()).toBe('https://rpc.example.com/v2/***');
      expect(await form.locator('#rpc-evm\\:sepolia-help').textContent()).toBe(
        'Weights 0 to 100 (100 when empty). A URL left as shown, masked with ***, keeps the URL stored behind it, credentials included: the console sends the masked text back and the service matches it to the stored URL. To change one, replace all of it. At least one.',
      );
      // Edited but still masked: not a URL of its own, so nothing is sent.
      await form.getByLabel('URL 1').fill('https://rpc.example.com/v3/***');
      await form.getByRole('button', { name: 'Save RPC URLs' }).click();
      expect(await textOf(form.locator('[id="rpc-evm:sepolia-0-error"]'))).toBe(
        'rpc_urls[0].url is masked (***) but is not a URL as read: type the whole URL, or put back the one shown.',
      );
      expect(await form.getByRole('alert').textContent()).toBe(
        'Nothing sent: correct what is said beside the fields.',
      );
      // The API's refusal, beside the row it names.
      await form.getByLabel('URL 1').fill('https://rpc.example.com/v2/***');
      await form.getByRole('button', { name: 'Add a URL' }).click();
      await form.getByLabel('URL 2').fill('http://169.254.169.254/latest');
      await form.getByRole('button', { name: 'Save RPC URLs' }).click();
      expect(await textOf(form.locator('[id="rpc-evm:sepolia-1-error"]'))).toBe(
        'rpc_urls[1].url points to a cloud metadata address',
      );
      expect(await sepolia()).toMatchObject({
        rpc_urls: [{ url: 'https://rpc.example.com/v2/***', weight: 100 }],
      });
      await form.getByLabel('URL 2').fill('https://second.example.com/rpc');
      await form.getByLabel('Weight 1').fill('60');
      await form.getByRole('button', { name: 'Save RPC URLs' }).click();
      await tab.page
        .getByText(
          'RPC URLs of sepolia saved: relayers without URLs of their own use them from their next check.',
        )
        .waitFor();
      expect((await sepolia()).rpc_urls).toEqual([
        { url: 'https://rpc.example.com/v2/***', weight: 60 },
        { url: 'https://second.example.com/***', weight: 100 },
      ]);
    });
  });

  it('fits 390 px with every form open, clean for axe; a read-only key sees none of them', async () => {
    const made = (
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { name: 'phone' }))
        .expect(201)
    ).body.data as Relayer;
    const tab = await open(app().apiKey, '#/relayers', PHONE);
    await tab.page.locator('summary', { hasText: 'Create a relayer' }).click();
    await tab.page.getByRole('form', { name: 'Create a relayer' }).waitFor();
    expect(await documentWidth(tab.page)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(tab.page)).toEqual([]);
    await tab.page.goto(`${app().baseUrl}/console/#/relayers/${made.id}`);
    await tab.page.getByRole('button', { name: 'Edit' }).click();
    await tab.page.getByRole('form', { name: 'Edit relayer phone' }).waitFor();
    expect(await documentWidth(tab.page)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(tab.page)).toEqual([]);

    const reader = await createKey(app(), {
      permissions: ['relayers:read', 'notifications:read', 'networks:read'],
    });
    const read = await open(reader.key, `#/relayers/${made.id}`);
    await read.page.getByRole('heading', { level: 1, name: 'phone' }).waitFor();
    expect(await read.page.getByRole('button', { name: /^(Edit|Delete|Pause)$/ }).count()).toBe(0);
    await read.page.goto(`${app().baseUrl}/console/#/relayers`);
    await read.page.getByRole('table').waitFor();
    expect(await read.page.locator('summary').count()).toBe(0);
    await read.page.goto(`${app().baseUrl}/console/#/networks/evm:sepolia`);
    await read.page.getByText('RPC URLs', { exact: true }).waitFor();
    expect(await read.page.getByRole('button', { name: /Edit RPC URLs/ }).count()).toBe(0);
  });
});
