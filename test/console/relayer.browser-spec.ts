import type { Page } from 'playwright-core';
import { createKey, relayerBody, uid } from '../factories';
import {
  distinct,
  DESKTOP,
  documentWidth,
  PHONE,
  screenshot,
  seriousViolations,
  useConsole,
} from '../support/browser';
import { EvmRpc } from '../support/evm-rpc';
import { useTestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

/** Sepolia's chain id, as the test catalogue has it: the fake node answers as Sepolia. */
const SEPOLIA = 11155111;
const ONE_AND_A_HALF = 1_500_000_000_000_000_000n;

interface Made {
  id: string;
  name: string;
  address: string;
  signer_id: string;
  created_at: string;
  updated_at: string;
}

/** The dt and dd texts of a section's facts, as pairs. */
async function facts(page: Page, section: string): Promise<[string, string][]> {
  const list = page.locator(`section[aria-labelledby="${section}"] dl.facts`);
  const terms = await list.locator('dt').allTextContents();
  const details = await list.locator('dd').allTextContents();
  return terms.map((term, i) => [term, details[i]]);
}

/** The caption of a relayer's deliveries: to every target that hears it (console/src/pages/relayer-deliveries.tsx). */
const DELIVERIES = 'Deliveries of its events, to every target that hears it';

describe('the operator console: the relayer page', () => {
  const node = new EvmRpc(SEPOLIA);
  const receiver = new WebhookReceiver();
  const handle = useTestApp();
  const app = () => handle.current;
  const tabs = useConsole(app);
  const open = async (key: string, hash: string, viewport = DESKTOP) => {
    const tab = await tabs.open(key, '', viewport);
    // Signed in, the shell moves to the first section once drawn: go to the page only after that move,
    // which would otherwise replace the page's hash.
    await tab.page.waitForFunction('window.location.hash !== ""');
    await tab.page.goto(`${app().baseUrl}/console/${hash}`);
    return tab;
  };
  const hook = uid('hook');
  let main: Made;
  let bare: Made;

  beforeAll(async () => {
    await node.start();
    await receiver.start();
    // A paused target: its deliveries stay pending, so the page and the API agree while a test reads them.
    await app()
      .post('/api/v1/notifications', { id: hook, url: 'https://hooks.example.com/hook' })
      .expect(201);
    await app().post(`/api/v1/notifications/${hook}/pause`).expect(200);
    const rpc = [{ url: node.url('/rpc'), weight: 100 }];
    main = (
      await app()
        .post(
          '/api/v1/relayers',
          relayerBody('evm', { name: 'main <b>relayer</b>', notification_id: hook, custom_rpc_urls: rpc }),
        )
        .expect(201)
    ).body.data as Made;
    bare = (
      await app()
        .post(
          '/api/v1/relayers',
          relayerBody('evm', { name: 'bare relayer', custom_rpc_urls: rpc, policies: { min_balance: 100 } }),
        )
        .expect(201)
    ).body.data as Made;
    node.setBalance(main.address, ONE_AND_A_HALF);
    node.setBalance(bare.address, 10n);
  });
  afterAll(async () => {
    await node.close();
    await receiver.close();
  });

  const relayerNow = async (id: string) =>
    (await app().get(`/api/v1/relayers/${id}`).expect(200)).body.data as Made & {
      paused: boolean;
      name: string;
      system_disabled: boolean;
      disabled_reason: { type: string; details: string } | null;
    };
  /** Waits for the section's outcome to say `text`, then checks that it says exactly that. */
  const said = async (page: Page, section: string, text: string) => {
    const outcome = page.locator(`section[aria-labelledby="${section}"] .outcome`);
    await outcome.filter({ hasText: text.slice(0, 40) }).waitFor();
    expect(await outcome.textContent()).toBe(text);
  };

  it('shows what the API holds: the relayer, never checked, no alert, its deliveries and its audit trail', async () => {
    const tab = await open(app().apiKey, `#/relayers/${main.id}`);
    const h1 = tab.page.getByRole('heading', { level: 1 });
    await tab.page.getByRole('table', { name: DELIVERIES }).waitFor();
    await tab.page.getByRole('table', { name: 'Changes of this relayer' }).waitFor();
    // The name is text: no element is made of it.
    expect(await h1.textContent()).toBe('main <b>relayer</b>');
    expect(await tab.page.locator('main b').count()).toBe(0);
    expect(await facts(tab.page, 'relayer-facts')).toEqual([
      ['State', 'Enabled'],
      ['Id', main.id],
      ['Network', 'sepolia'],
      ['Network type', 'evm'],
      ['Address', main.address],
      ['Signer', main.signer_id],
      ['Notification target', hook],
      ['Created', expect.any(String)],
      ['Updated', expect.any(String)],
    ]);
    const times = tab.page.locator('section[aria-labelledby="relayer-facts"] time');
    expect(await times.evaluateAll((all) => all.map((t) => t.getAttribute('datetime')))).toEqual([
      main.created_at,
      main.updated_at,
    ]);
    expect(await tab.page.locator('dl').getByRole('link', { name: hook }).getAttribute('href')).toBe(
      `#/notifications/${hook}`,
    );
    await expect(
      tab.page.locator('section[aria-labelledby="relayer-status"] .state.empty').textContent(),
    ).resolves.toBe('Never checked: the service checks it on its schedule, or now with Check now.');
    await expect(tab.page.locator('.alert-rule').textContent()).resolves.toBe(
      'No alert: neither this relayer nor its network has a threshold.',
    );
    const deliveries = tab.page.getByRole('table', { name: DELIVERIES }).locator('tbody tr');
    expect(await deliveries.locator('td').allTextContents()).toEqual([
      hook,
      'relayer_created',
      'pending',
      '0',
      'none yet',
      // Its target is paused: nothing is sent until it resumes, whenever the delivery was due.
      'waits for resume',
    ]);
    const audit = tab.page.getByRole('table', { name: 'Changes of this relayer' }).locator('tbody tr');
    expect(await audit.count()).toBe(1);
    expect((await audit.locator('td').allTextContents()).slice(0, 2)).toEqual([
      'API_KEY (admin)',
      'relayer.create',
    ]);
    expect(await audit.locator('li').allTextContents()).toContain('name: "main <b>relayer</b>"');
    expect(await seriousViolations(tab.page)).toEqual([]);
  });

  it('a failed delivery\'s last answer names its status once: "HTTP 410", not "HTTP 410: HTTP 410"', async () => {
    const refusing = uid('hook');
    receiver.script('/refusing', [{ status: 410 }]);
    await app()
      .post('/api/v1/notifications', { id: refusing, url: receiver.url('/refusing') })
      .expect(201);
    const made = (
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { name: 'refused', notification_id: refusing }))
        .expect(201)
    ).body.data as Made;
    // 410 is not retried: the delivery ends failed at its first attempt.
    const [failed] = await waitFor('the failed delivery', async () => {
      const log = (await app().get(`/api/v1/notifications/${refusing}/deliveries`).expect(200)).body.data as {
        status: string;
        last_status_code: number | null;
        last_error: string | null;
      }[];
      return log.length === 1 && log[0].status === 'failed' && log;
    });
    expect([failed.last_status_code, failed.last_error]).toEqual([410, 'HTTP 410']);
    const tab = await open(app().apiKey, `#/relayers/${made.id}`);
    const row = tab.page.getByRole('table', { name: DELIVERIES }).locator('tbody tr');
    await row.waitFor();
    expect(await row.locator('td').allTextContents()).toEqual([
      refusing,
      'relayer_created',
      'failed',
      '1',
      'HTTP 410',
      expect.any(String),
    ]);
    expect(await seriousViolations(tab.page)).toEqual([]);
  });

  it('Check now reads the node: the page shows the balance it found, and so does the API', async () => {
    const tab = await open(app().apiKey, `#/relayers/${main.id}`);
    await tab.page.getByRole('button', { name: 'Check now' }).click();
    await said(tab.page, 'relayer-status', 'Checked: the status below is what this check found.');
    const status = (await app().get(`/api/v1/relayers/${main.id}/status`).expect(200)).body.data as Record<
      string,
      unknown
    >;
    expect(status).toEqual({
      network_type: 'evm',
      balance: '1500000000000000000',
      paused: false,
      system_disabled: false,
      pending_transactions_count: 0,
      last_confirmed_transaction_timestamp: null,
      nonce: '0',
      checked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      low_balance: null,
    });
    expect(await facts(tab.page, 'relayer-status')).toEqual([
      ['Balance', '1.5 ETH'],
      ['Low balance', 'not compared (no alert threshold, or none since it was set)'],
      ['Nonce', '0'],
      ['Pending transactions', '0'],
      ['Last confirmed', 'never'],
      ['Checked', expect.any(String)],
    ]);
    expect(
      await tab.page.locator('section[aria-labelledby="relayer-status"] time').getAttribute('datetime'),
    ).toBe(status.checked_at);
    expect(
      await tab.page.locator('section[aria-labelledby="relayer-status"] .amount').getAttribute('title'),
    ).toBe('1.5 ETH (1500000000000000000 wei)');
    await screenshot(tab.page, 'relayer');
  });

  it('pauses and resumes with the ETag: a change made elsewhere meanwhile is a 412 that says so, then reloads', async () => {
    const tab = await open(app().apiKey, `#/relayers/${main.id}`);
    await tab.page.getByRole('button', { name: 'Pause', exact: true }).click();
    // Asked first (test/console/confirmations.browser-spec.ts says what).
    await tab.page
      .getByRole('alertdialog')
      .getByRole('button', { name: 'Pause main <b>relayer</b>' })
      .click();
    await said(tab.page, 'relayer-facts', 'Paused: the relayer takes no work.');
    expect((await relayerNow(main.id)).paused).toBe(true);
    expect(
      await tab.page.locator('section[aria-labelledby="relayer-facts"] dd .badge').allTextContents(),
    ).toEqual(['Paused']);
    // Someone else renames it: the page's ETag is now stale.
    await app().patch(`/api/v1/relayers/${main.id}`, { name: 'renamed elsewhere' }).expect(200);
    await tab.page.getByRole('button', { name: 'Resume' }).click();
    await said(
      tab.page,
      'relayer-facts',
      'Nothing changed: the relayer was changed elsewhere since this page read it (Precondition Failed). ' +
        'It has been read again: check it, then try again.',
    );
    await tab.page.getByRole('heading', { level: 1, name: 'renamed elsewhere' }).waitFor();
    expect((await relayerNow(main.id)).paused).toBe(true);
    await tab.page.getByRole('button', { name: 'Resume' }).click();
    await said(tab.page, 'relayer-facts', 'Resumed: the relayer takes work again.');
    expect((await relayerNow(main.id)).paused).toBe(false);
    // The trail and the deliveries are read again after each change.
    const audit = tab.page.getByRole('table', { name: 'Changes of this relayer' }).locator('tbody tr');
    await audit.nth(3).waitFor();
    expect(await audit.locator('td.mono').allTextContents()).toEqual([
      'relayer.update',
      'relayer.update',
      'relayer.update',
      'relayer.create',
    ]);
    expect(await audit.nth(0).locator('li').allTextContents()).toEqual(['paused: true → false']);
    expect(await audit.nth(1).locator('li').allTextContents()).toEqual([
      'name: "main <b>relayer</b>" → "renamed elsewhere"',
    ]);
    expect(await audit.nth(2).locator('li').allTextContents()).toEqual(['paused: false → true']);
    const events = tab.page.getByRole('table', { name: DELIVERIES }).locator('tbody td.mono');
    await events.nth(3).waitFor();
    const log = (
      await app().get(`/api/v1/notifications/${hook}/deliveries?relayer_id=${main.id}`).expect(200)
    ).body.data as { event: string }[];
    expect(await events.allTextContents()).toEqual(log.map((d) => d.event));
    expect(log.map((d) => d.event)).toEqual([
      'relayer_updated',
      'relayer_updated',
      'relayer_updated',
      'relayer_created',
    ]);
  });

  it('a disabled relayer shows its reason; no control clears it but a check that passes', async () => {
    const tab = await open(app().apiKey, `#/relayers/${bare.id}`);
    await tab.page.getByRole('button', { name: 'Check now' }).click();
    await said(tab.page, 'relayer-status', 'Checked: the status below is what this check found.');
    const disabled = await relayerNow(bare.id);
    expect([disabled.system_disabled, disabled.disabled_reason]).toEqual([
      true,
      { type: 'BalanceCheckFailed', details: 'balance 10 is below min_balance 100' },
    ]);
    await tab.page.locator('section[aria-labelledby="relayer-facts"] .reason').waitFor();
    expect((await facts(tab.page, 'relayer-facts'))[0]).toEqual([
      'State',
      'DisabledBalanceCheckFailed: balance 10 is below min_balance 100',
    ]);
    expect(await tab.page.locator('section[aria-labelledby="relayer-facts"] .help').textContent()).toBe(
      'Its health check disabled it; only a check that passes enables it again. Repair the cause above ' +
        '(its RPC URLs, its balance or its policies), then check it now.',
    );
    expect(
      await tab.page.locator('section[aria-labelledby="relayer-facts"] button').allTextContents(),
    ).toEqual(['Pause', 'Edit', 'Delete']);
    // No target hears it: no deliveries, and the page says which targets would get them.
    await expect(
      tab.page.locator('section[aria-labelledby="relayer-deliveries"] .state.empty').textContent(),
    ).resolves.toBe(
      'No deliveries of its events yet: its own notification target and every target subscribed to it are ' +
        'sent each of its events as it happens.',
    );
    node.setBalance(bare.address, 1000n);
    await tab.page.getByRole('button', { name: 'Check now' }).click();
    await tab.page.locator('section[aria-labelledby="relayer-facts"] .badge.enabled').waitFor();
    expect((await relayerNow(bare.id)).system_disabled).toBe(false);
    expect(await tab.page.locator('section[aria-labelledby="relayer-facts"] .reason').count()).toBe(0);
  });

  it('shows unknown, never the kept balance, when its last check could not read the balance', async () => {
    const mainnetNode = await new EvmRpc(1).start();
    try {
      const flaky = (
        await app()
          .post(
            '/api/v1/relayers',
            relayerBody('evm', { name: 'flaky', custom_rpc_urls: [{ url: node.url('/rpc'), weight: 100 }] }),
          )
          .expect(201)
      ).body.data as Made;
      node.setBalance(flaky.address, ONE_AND_A_HALF);
      await app().post(`/api/v1/relayers/${flaky.id}/check`).expect(200);
      // Its RPC URL now answers for another chain: the next check reads no balance.
      await app()
        .patch(`/api/v1/relayers/${flaky.id}`, {
          custom_rpc_urls: [{ url: mainnetNode.url('/rpc'), weight: 100 }],
        })
        .expect(200);
      const tab = await open(app().apiKey, `#/relayers/${flaky.id}`);
      await tab.page.getByRole('button', { name: 'Check now' }).click();
      await said(tab.page, 'relayer-status', 'Checked: the status below is what this check found.');
      const status = (await app().get(`/api/v1/relayers/${flaky.id}/status`).expect(200)).body.data as {
        balance: string;
        system_disabled: boolean;
      };
      // The API keeps the last balance read, as the reference interface answers it.
      expect([status.balance, status.system_disabled]).toEqual(['1500000000000000000', true]);
      await tab.page.locator('section[aria-labelledby="relayer-facts"] .reason').waitFor();
      expect((await facts(tab.page, 'relayer-facts'))[0]).toEqual([
        'State',
        "DisabledRpcValidationFailed: no RPC endpoint answered with the right chain: chain id 0x1 differs from the catalogue's 11155111",
      ]);
      expect((await facts(tab.page, 'relayer-status'))[0]).toEqual([
        'Balance',
        'unknown (its last check could not read it: see the reason above)',
      ]);
      expect(await seriousViolations(tab.page)).toEqual([]);
    } finally {
      await mainnetNode.close();
    }
  });

  it('sets a threshold typed in ETH (every digit kept), refuses what is not an amount, sets no alert, removes its own rule', async () => {
    const tab = await open(app().apiKey, `#/relayers/${main.id}`);
    const alert = tab.page.locator('.alert-rule');
    const rule = async () =>
      (await app().get(`/api/v1/relayers/${main.id}/balance-alert`).expect(200)).body.data as unknown;
    // Not an amount: nothing is sent, and the field says why.
    await tab.page.getByLabel('Threshold (ETH)').fill('1e18');
    await tab.page.getByRole('button', { name: 'Set threshold' }).click();
    await said(
      tab.page,
      'relayer-alert',
      'Nothing sent: Not an amount: write digits with at most one decimal point, such as 0.05 (no sign, no commas, no exponent).',
    );
    expect(await tab.page.locator('#relayer-threshold-note').textContent()).toBe(
      'Not an amount: write digits with at most one decimal point, such as 0.05 (no sign, no commas, no exponent).',
    );
    expect(await rule()).toEqual({ threshold: null, source: null });

    await tab.page.getByLabel('Threshold (ETH)').fill('123456789012.34567890123456789');
    expect(await tab.page.locator('#relayer-threshold-note').textContent()).toBe(
      'Sends 123456789012345678901234567890 wei.',
    );
    await tab.page.getByRole('button', { name: 'Set threshold' }).click();
    await said(tab.page, 'relayer-alert', 'Threshold set: the next check compares the balance with it.');
    expect(await alert.textContent()).toBe('Alert below ≈ 123,457,000,000 ETH, from its own rule.');
    expect(await alert.locator('.amount').getAttribute('title')).toBe(
      '123,456,789,012.34567890123456789 ETH (123456789012345678901234567890 wei)',
    );
    expect(await rule()).toEqual({ threshold: '123456789012345678901234567890', source: 'relayer' });

    await tab.page.getByRole('button', { name: 'No alert for this relayer' }).click();
    await said(tab.page, 'relayer-alert', 'Set: no alert for this relayer.');
    expect(await alert.textContent()).toBe(
      'No alert: its own rule says no alert for this relayer, whatever its network says.',
    );
    expect(await rule()).toEqual({ threshold: null, source: 'relayer' });

    await tab.page.getByRole('button', { name: 'Remove its own rule' }).click();
    await said(tab.page, 'relayer-alert', 'Its own rule is removed: its network’s default applies, if any.');
    expect(await alert.textContent()).toBe('No alert: neither this relayer nor its network has a threshold.');
    expect(await rule()).toEqual({ threshold: null, source: null });
    expect(await tab.page.getByRole('button', { name: 'Remove its own rule' }).count()).toBe(0);
  });

  it('pages its deliveries and its audit trail through the API, 10 at a time', async () => {
    const busy = (
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { name: 'busy', notification_id: hook }))
        .expect(201)
    ).body.data as Made;
    for (let i = 1; i <= 11; i++)
      await app()
        .patch(`/api/v1/relayers/${busy.id}`, { name: `busy ${i}` })
        .expect(200);
    const deliveries = (
      await app().get(`/api/v1/relayers/${busy.id}/deliveries?per_page=10&page=2`).expect(200)
    ).body as { data: { event: string }[]; pagination: { total_items: number } };
    const audit = (
      await app()
        .get(`/api/v1/audit?resource_type=relayer&resource_id=${busy.id}&per_page=10&page=2`)
        .expect(200)
    ).body as { data: { action: string }[]; pagination: { total_items: number } };
    expect([deliveries.pagination.total_items, audit.pagination.total_items]).toEqual([12, 12]);
    const firstPage = (await app().get(`/api/v1/relayers/${busy.id}/deliveries?limit=10`).expect(200))
      .body as { pagination: { next_cursor: string } };

    const tab = await open(app().apiKey, `#/relayers/${busy.id}`);
    for (const [label, table] of [
      ['Deliveries', DELIVERIES],
      ['Audit records', 'Changes of this relayer'],
    ]) {
      const pager = tab.page.getByRole('navigation', { name: `${label} pages` });
      // Both by cursor, Older and Newest (docs/reference/pagination.md#17-cursors).
      await expect(pager.locator('span').textContent()).resolves.toBe('Older ones follow');
      expect(await tab.page.getByRole('table', { name: table }).locator('tbody tr').count()).toBe(10);
      await pager.getByRole('button', { name: 'Older' }).click();
      await pager.getByText('The oldest shown').waitFor();
      expect(
        await tab.page.getByRole('table', { name: table }).locator('tbody td.mono').allTextContents(),
      ).toEqual(
        label === 'Deliveries' ? deliveries.data.map((d) => d.event) : audit.data.map((r) => r.action),
      );
    }
    expect(
      await tab.page
        .getByRole('table', { name: 'Changes of this relayer' })
        .locator('li')
        .first()
        .textContent(),
    ).toBe('name: "busy" → "busy 1"');
    // Never the whole log: every read of it asked the API for a page of one relayer's deliveries.
    const reads = distinct(tab.requests.filter((url) => url.includes('/deliveries')));
    expect(reads.map((url) => `${new URL(url).pathname}${new URL(url).search}`)).toEqual([
      `/api/v1/relayers/${busy.id}/deliveries?limit=10`,
      `/api/v1/relayers/${busy.id}/deliveries?limit=10&cursor=${firstPage.pagination.next_cursor}`,
    ]);
  });

  it('a read-only key scoped to one relayer: no write control, hidden sections say why, the other relayer is a 404', async () => {
    const key = (
      await createKey(app(), {
        name: uid('relayer-page'),
        permissions: ['relayers:read'],
        relayer_ids: [main.id],
      })
    ).key;
    const tab = await open(key, `#/relayers/${main.id}`);
    await tab.page.locator('section[aria-labelledby="relayer-status"] dl.facts').waitFor();
    await tab.page.locator('.alert-rule').waitFor();
    expect(await tab.page.locator('main button').count()).toBe(0);
    expect(await tab.page.locator('main form').count()).toBe(0);
    expect(await tab.page.locator('main input').count()).toBe(0);
    // Without notifications:read the target is named, not linked.
    expect(await tab.page.locator('section[aria-labelledby="relayer-facts"] a').count()).toBe(0);
    expect(await tab.page.locator('section[aria-labelledby="relayer-deliveries"] p').textContent()).toBe(
      'Hidden: reading deliveries needs the notifications:read permission, which this key lacks.',
    );
    expect(await tab.page.locator('section[aria-labelledby="relayer-audit"] p').textContent()).toBe(
      'Hidden: reading the audit trail needs the audit:read permission, which this key lacks.',
    );
    expect(await seriousViolations(tab.page)).toEqual([]);

    await tab.page.goto(`${app().baseUrl}/console/#/relayers/${bare.id}`);
    await tab.page.getByRole('heading', { level: 1, name: 'Relayer not found' }).waitFor();
    expect(await tab.page.locator('main .state.empty p').allTextContents()).toEqual([
      `No relayer ${bare.id}: it does not exist or this key may not see it.`,
      'Back to the relayers',
    ]);
    expect(await tab.page.locator('main').textContent()).not.toContain('bare relayer');
    expect(await tab.page.locator('main').textContent()).not.toContain(bare.address);
  });

  it('an unknown id says so and links back to the list', async () => {
    const tab = await open(app().apiKey, '#/relayers/no-such-relayer');
    await tab.page.getByRole('heading', { level: 1, name: 'Relayer not found' }).waitFor();
    await expect(tab.page.locator('main .state.empty p').first().textContent()).resolves.toBe(
      'No relayer no-such-relayer: it does not exist or this key may not see it.',
    );
    await tab.page.getByRole('link', { name: 'Back to the relayers' }).click();
    await tab.page.getByRole('heading', { level: 1, name: 'Relayers' }).waitFor();
    expect(new URL(tab.page.url()).hash).toBe('#/relayers');
    expect(await seriousViolations(tab.page)).toEqual([]);
  });

  it('fits a 390 px wide screen: the page does not scroll sideways, its tables do', async () => {
    await app().post(`/api/v1/relayers/${main.id}/check`).expect(200);
    const tab = await open(app().apiKey, `#/relayers/${main.id}`, PHONE);
    await tab.page.getByRole('table', { name: DELIVERIES }).waitFor();
    await tab.page.getByRole('table', { name: 'Changes of this relayer' }).waitFor();
    await tab.page.locator('section[aria-labelledby="relayer-status"] dl.facts').waitFor();
    expect(await documentWidth(tab.page)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(tab.page)).toEqual([]);
    await screenshot(tab.page, 'relayer');
  });
});
