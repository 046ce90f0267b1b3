import type { Page } from 'playwright-core';
import { createKey, relayerBody, uid } from '../factories';
import { as } from '../support/as-key';
import {
  DESKTOP,
  PHONE,
  seriousViolations,
  settledTo,
  useConsole,
  type ConsoleTab,
} from '../support/browser';
import { expectError } from '../support/envelope';
import { secrets } from '../support/secrets';
import { useTestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

/** What an open confirmation says: its role, its heading, its effect and its buttons. */
async function dialogOf(page: Page) {
  const dialog = page.getByRole('alertdialog');
  await dialog.waitFor();
  const labelled = await dialog.evaluate((el) => {
    const title = el.ownerDocument.getElementById(el.getAttribute('aria-labelledby') ?? '');
    const effect = el.ownerDocument.getElementById(el.getAttribute('aria-describedby') ?? '');
    return [title?.tagName, title?.textContent, effect?.textContent, el.getAttribute('aria-modal')];
  });
  return {
    dialog,
    heading: labelled[1],
    effect: labelled[2],
    titled: labelled[0] === 'H2' && labelled[3] === 'true',
    buttons: await dialog.getByRole('button').allTextContents(),
  };
}

const focused = (page: Page) => page.evaluate<string | undefined>('document.activeElement?.textContent');

describe('the operator console: confirmations of what cannot be undone or fans out', () => {
  const receiver = new WebhookReceiver();
  const handle = useTestApp({ WEBHOOK_RETRY_BASE_MS: '40' });
  const app = () => handle.current;
  const tabs = useConsole(app);
  const open = async (key: string, hash: string, viewport = DESKTOP): Promise<ConsoleTab> => {
    const tab = await tabs.open(key, '', viewport);
    await settledTo(() => tab.page.evaluate<string>('window.location.hash === "" ? "" : "moved"'), 'moved');
    await tab.page.goto(`${app().baseUrl}/console/${hash}`);
    return tab;
  };
  const relayerNow = (id: string) => app().get(`/api/v1/relayers/${id}`);
  const stateOf = async (id: string) =>
    (await app().get(`/api/v1/notifications/${id}/state`).expect(200)).body.data as { paused: boolean };

  beforeAll(async () => {
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('pauses a relayer only once confirmed: Escape and Cancel change nothing, focus goes back', async () => {
    const made = (
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { name: 'careful' }))
        .expect(201)
    ).body.data as { id: string };
    const tab = await open(app().apiKey, `#/relayers/${made.id}`);
    const pause = tab.page.getByRole('button', { name: 'Pause', exact: true });
    await pause.click();
    const asked = await dialogOf(tab.page);
    expect(asked).toMatchObject({
      heading: 'Pause relayer careful?',
      effect: `Relayer ${made.id} takes no work until it is resumed. The targets that hear it receive relayer_updated.`,
      titled: true,
      buttons: ['Pause careful', 'Cancel'],
    });
    expect(await focused(tab.page)).toBe('Cancel');
    expect(await seriousViolations(tab.page)).toEqual([]);
    await tab.page.keyboard.press('Escape');
    await asked.dialog.waitFor({ state: 'detached' });
    expect(await focused(tab.page)).toBe('Pause');
    expect(((await relayerNow(made.id).expect(200)).body.data as { paused: boolean }).paused).toBe(false);
    await pause.click();
    await tab.page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    expect(((await relayerNow(made.id).expect(200)).body.data as { paused: boolean }).paused).toBe(false);
    await pause.click();
    await tab.page.getByRole('button', { name: 'Pause careful' }).click();
    await tab.page.getByText('Paused: the relayer takes no work.').waitFor();
    expect(((await relayerNow(made.id).expect(200)).body.data as { paused: boolean }).paused).toBe(true);
    // Resuming needs no confirmation.
    await tab.page.getByRole('button', { name: 'Resume' }).click();
    await tab.page.getByText('Resumed: the relayer takes work again.').waitFor();
    expect(((await relayerNow(made.id).expect(200)).body.data as { paused: boolean }).paused).toBe(false);
  });

  it('deletes a relayer once confirmed, saying what follows; clean for axe at 390 px', async () => {
    const made = (
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { name: 'doomed' }))
        .expect(201)
    ).body.data as { id: string; signer_id: string };
    const tab = await open(app().apiKey, `#/relayers/${made.id}`, PHONE);
    await tab.page.getByRole('button', { name: 'Delete', exact: true }).click();
    const asked = await dialogOf(tab.page);
    expect(asked).toMatchObject({
      heading: 'Delete relayer doomed?',
      effect: `Relayer ${made.id} on sepolia (evm) is deleted: it is no longer checked, its signer ${made.signer_id} is free again on this network, and the targets that hear it receive relayer_deleted. This cannot be undone.`,
      buttons: ['Delete doomed', 'Cancel'],
    });
    expect(await seriousViolations(tab.page)).toEqual([]);
    await asked.dialog.getByRole('button', { name: 'Cancel' }).click();
    await relayerNow(made.id).expect(200);
    await tab.page.getByRole('button', { name: 'Delete', exact: true }).click();
    await tab.page.getByRole('button', { name: 'Delete doomed' }).click();
    await settledTo(() => tab.page.evaluate<string>('window.location.hash'), '#/relayers');
    expectError(await relayerNow(made.id), 404, `Relayer with ID ${made.id} not found`);
  });

  it('pauses and deletes a target once confirmed', async () => {
    const id = uid('hook');
    await app().post('/api/v1/notifications', { id, url: 'https://hooks.example.com/careful' }).expect(201);
    const tab = await open(app().apiKey, `#/notifications/${id}`);
    await tab.page.getByRole('button', { name: 'Pause', exact: true }).click();
    const pausing = await dialogOf(tab.page);
    expect(pausing).toMatchObject({
      heading: `Pause target ${id}?`,
      effect:
        'Nothing is sent to https://hooks.example.com/careful until it is resumed. The events of the relayers it hears wait, pending, and are sent in order on resume; Send a test still sends.',
      buttons: [`Pause ${id}`, 'Cancel'],
    });
    await tab.page.keyboard.press('Escape');
    await pausing.dialog.waitFor({ state: 'detached' });
    expect(await stateOf(id)).toMatchObject({ paused: false });
    await tab.page.getByRole('button', { name: 'Pause', exact: true }).click();
    await tab.page.getByRole('button', { name: `Pause ${id}` }).click();
    await tab.page.getByText('Paused: deliveries wait until it is resumed.').waitFor();
    expect(await stateOf(id)).toMatchObject({ paused: true });

    await tab.page.getByRole('button', { name: 'Delete', exact: true }).click();
    const deleting = await dialogOf(tab.page);
    expect(deleting).toMatchObject({
      heading: `Delete target ${id}?`,
      effect:
        'Nothing more is sent to https://hooks.example.com/careful. Its delivery log and its subscription are deleted with it, and its pending deliveries are never sent. A target that relayers name as their notification target cannot be deleted. This cannot be undone.',
      buttons: [`Delete ${id}`, 'Cancel'],
    });
    expect(await seriousViolations(tab.page)).toEqual([]);
    await deleting.dialog.getByRole('button', { name: 'Cancel' }).click();
    await app().get(`/api/v1/notifications/${id}`).expect(200);
    await tab.page.getByRole('button', { name: 'Delete', exact: true }).click();
    await tab.page.getByRole('button', { name: `Delete ${id}` }).click();
    await settledTo(() => tab.page.evaluate<string>('window.location.hash'), '#/notifications');
    expectError(await app().get(`/api/v1/notifications/${id}`), 404, 'Notification not found');
  });

  it('revokes a key once confirmed; rotates with an hour of overlap by default, and asks before none', async () => {
    const revoked = await createKey(app(), { name: 'revoke me', permissions: ['relayers:read'] });
    const rotated = await createKey(app(), { name: 'rotate me', permissions: ['relayers:read'] });
    const tab = await open(app().apiKey, '#/api-keys');
    const row = (name: string) =>
      tab.page
        .getByRole('table', { name: 'API keys' })
        .getByRole('row')
        .filter({ has: tab.page.getByRole('rowheader').getByText(name, { exact: true }) });
    await row('revoke me').getByRole('button', { name: 'Revoke' }).click();
    const revoking = await dialogOf(tab.page);
    expect(revoking).toMatchObject({
      heading: 'Revoke key revoke me?',
      effect: `Every client using ${revoked.key_prefix}… is refused from now on. The keys it created are revoked with it. This cannot be undone.`,
      buttons: ['Revoke revoke me', 'Cancel'],
    });
    await tab.page.keyboard.press('Escape');
    await revoking.dialog.waitFor({ state: 'detached' });
    await as(app(), revoked.key).get('/api/v1/relayers').expect(200);
    await row('revoke me').getByRole('button', { name: 'Revoke' }).click();
    await tab.page.getByRole('button', { name: 'Revoke revoke me' }).click();
    await row('revoke me').waitFor({ state: 'detached' });
    expectError(await as(app(), revoked.key).get('/api/v1/relayers'), 401, 'Unauthorized');

    // The default overlap: an hour, no question asked; the old secret still works.
    await row('rotate me').getByRole('button', { name: 'Rotate' }).click();
    const overlap = row('rotate me').getByLabel('Old secret keeps working for (seconds)');
    expect(await overlap.inputValue()).toBe('3600');
    await row('rotate me').getByRole('button', { name: 'Rotate rotate me' }).click();
    await tab.page.getByRole('region', { name: 'New secret for rotate me' }).waitFor();
    const second = secrets.add((await tab.page.locator('.new-secret .secret').textContent()) ?? '');
    await as(app(), rotated.key).get('/api/v1/relayers').expect(200);
    await tab.page.getByRole('button', { name: 'Done' }).click();
    // Without overlap: asked first, and Cancel keeps the current secret working.
    await row('rotate me').getByRole('button', { name: 'Rotate' }).click();
    await row('rotate me').getByLabel('Old secret keeps working for (seconds)').fill('0');
    await row('rotate me').getByRole('button', { name: 'Rotate rotate me' }).click();
    const rotating = await dialogOf(tab.page);
    expect(rotating).toMatchObject({
      heading: 'Rotate key rotate me without overlap?',
      effect:
        'Its old secret stops working at once: every client still using it is refused (401) until it has the new one.',
      buttons: ['Rotate rotate me now', 'Cancel'],
    });
    expect(await seriousViolations(tab.page)).toEqual([]);
    await rotating.dialog.getByRole('button', { name: 'Cancel' }).click();
    await as(app(), second).get('/api/v1/relayers').expect(200);
    await row('rotate me').getByRole('button', { name: 'Rotate rotate me' }).click();
    await tab.page.getByRole('button', { name: 'Rotate rotate me now' }).click();
    await tab.page.getByRole('region', { name: 'New secret for rotate me' }).waitFor();
    secrets.add((await tab.page.locator('.new-secret .secret').textContent()) ?? '');
    expectError(await as(app(), second).get('/api/v1/relayers'), 401, 'Unauthorized');
  });

  it('says how many deliveries a replay queues and where, warns that the target may pause itself, and queues them once confirmed', async () => {
    const id = uid('hook');
    const path = `/${id}`;
    // Every delivery refused: 50 in a row pause the target by itself (WEBHOOK_PAUSE_AFTER_FAILURES' default).
    receiver.script(
      path,
      Array.from({ length: 50 }, () => ({ status: 404 })),
    );
    await app()
      .post('/api/v1/notifications', { id, url: receiver.url(path) })
      .expect(201);
    const made = (
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { name: 'noisy', notification_id: id }))
        .expect(201)
    ).body.data as { id: string };
    for (let i = 1; i < 50; i++)
      await app()
        .patch(`/api/v1/relayers/${made.id}`, { name: `noisy ${i}` })
        .expect(200);
    const count = async (status: string) =>
      (
        (await app().get(`/api/v1/notifications/${id}/deliveries?status=${status}&per_page=1`).expect(200))
          .body as {
          pagination: { total_items: number };
        }
      ).pagination.total_items;
    await waitFor('50 failed deliveries', async () => (await count('failed')) === 50, { timeoutMs: 20_000 });
    expect(await stateOf(id)).toMatchObject({ paused: true });
    await app().post(`/api/v1/notifications/${id}/resume`).expect(200);

    const tab = await open(app().apiKey, `#/notifications/${id}`);
    await tab.page.getByRole('button', { name: 'Replay', exact: true }).click();
    const asked = await dialogOf(tab.page);
    expect(asked).toMatchObject({
      heading: `Queue 50 deliveries to ${receiver.url(path)}?`,
      effect:
        'Each is sent again as it was first sent, with its event id, oldest first. Those replayed in the last hour are skipped.' +
        'Warning: its last delivery failed (HTTP 404). If the receiver still fails, 50 failures in a row (WEBHOOK_PAUSE_AFTER_FAILURES, 50 by default) pause the target by itself, and the rest wait.',
      buttons: ['Queue 50 deliveries', 'Cancel'],
    });
    expect(await focused(tab.page)).toBe('Cancel');
    expect(await seriousViolations(tab.page)).toEqual([]);
    await tab.page.keyboard.press('Escape');
    await asked.dialog.waitFor({ state: 'detached' });
    expect(await focused(tab.page)).toBe('Replay');
    expect([await count('failed'), await count('pending')]).toEqual([50, 0]);

    // With an event chosen, the count can only be an upper bound.
    await tab.page.getByLabel('Event').selectOption('relayer_created');
    await tab.page.getByRole('button', { name: 'Replay', exact: true }).click();
    const bounded = await dialogOf(tab.page);
    expect(bounded.heading).toBe(`Queue at most 50 deliveries to ${receiver.url(path)}?`);
    expect(bounded.effect).toMatch(
      /^50 deliveries of this target are failed; the event and times chosen may match fewer\.Each is sent again/,
    );
    await bounded.dialog.getByRole('button', { name: 'Cancel' }).click();
    expect([await count('failed'), await count('pending')]).toEqual([50, 0]);

    await tab.page.getByLabel('Event').selectOption('');
    await tab.page.getByRole('button', { name: 'Replay', exact: true }).click();
    await tab.page.getByRole('button', { name: 'Queue 50 deliveries' }).click();
    await tab.page.getByText('Replay: 50 queued again, 0 left for another call.').waitFor();
    await waitFor('50 delivered', async () => (await count('delivered')) === 50, { timeoutMs: 20_000 });
    expect(await count('failed')).toBe(0);
  });

  it('offers no confirmation to a key that may not act', async () => {
    const made = (
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { name: 'watched' }))
        .expect(201)
    ).body.data as { id: string };
    const reader = await createKey(app(), { permissions: ['relayers:read'] });
    const tab = await open(reader.key, `#/relayers/${made.id}`);
    await tab.page.getByRole('heading', { level: 1, name: 'watched' }).waitFor();
    expect(await tab.page.getByRole('button', { name: /^(Pause|Delete|Edit)$/ }).count()).toBe(0);
    expect(await tab.page.getByRole('alertdialog').count()).toBe(0);
  });
});
