import { relayerBody } from '../factories';
import {
  liveLineWithin,
  pauseClock,
  seriousViolations,
  settledTo,
  useConsole,
  type ConsoleTab,
} from '../support/browser';
import { useTestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

interface Delivery {
  id: string;
  status: string;
}

describe('the operator console: open pages read again by themselves', () => {
  const receiver = new WebhookReceiver();
  const handle = useTestApp({ WEBHOOK_TIMEOUT_MS: '30000' });
  const app = () => handle.current;
  const { open } = useConsole(app);

  beforeAll(async () => {
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.close();
  });

  /** A target at `path` whose receiver holds its first request until released, and a relayer naming it. */
  const heldTarget = async (id: string, path: string) => {
    receiver.script(path, [{ status: 200, hold: true }]);
    await app()
      .post('/api/v1/notifications', { id, url: receiver.url(path) })
      .expect(201);
    const relayer = (
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { name: `${id} relayer`, notification_id: id }))
        .expect(201)
    ).body.data as { id: string };
    return relayer.id;
  };
  /** Answers the request held at `path` (once it arrived), then the target's deliveries once none is pending. */
  const delivered = async (id: string, path: string) => {
    await receiver.waitFor(path, 1);
    expect(receiver.release(path)).toBe(1);
    return waitFor(`the deliveries of ${id} delivered`, async () => {
      const log = (await app().get(`/api/v1/notifications/${id}/deliveries`).expect(200)).body
        .data as Delivery[];
      return log.length > 0 && log.every((d) => d.status === 'delivered') && log;
    });
  };
  /**
   * A tab at `hash` whose clock the test moves (Playwright's fake timers, installed before the page
   * loads: a reload keeps the key, which lives in the tab's sessionStorage).
   */
  const openWithClock = async (hash: string): Promise<ConsoleTab> => {
    const tab = await open(app().apiKey, hash);
    await tab.page.clock.install();
    await tab.page.reload();
    return tab;
  };
  /** The live line says a read of the last 4 s ("just now" on a quiet machine). */
  const recent = (tab: ConsoleTab) => settledTo(() => liveLineWithin(tab.page, 0, 4), 'Updated 0 to 4 s ago');
  const statusCells = (tab: ConsoleTab, table: string) =>
    tab.page.getByRole('table', { name: table }).locator('tbody .badge').allTextContents();

  it("shows a pending delivery delivered on the target's page, without a reload", async () => {
    await heldTarget('hook-slow', '/slow');
    const tab = await openWithClock('#/notifications/hook-slow');
    await tab.page.getByRole('table', { name: 'Deliveries' }).waitFor();
    expect(await statusCells(tab, 'Deliveries')).toEqual(['Pending']);
    await delivered('hook-slow', '/slow');
    await tab.page.clock.fastForward(15_000);
    expect(await settledTo(() => statusCells(tab, 'Deliveries'), ['Delivered'])).toEqual(['Delivered']);
    expect(await recent(tab)).toBe('Updated 0 to 4 s ago');
  });

  it("shows a pending delivery delivered on its relayer's page, without a reload", async () => {
    const relayerId = await heldTarget('hook-slower', '/slower');
    const tab = await openWithClock(`#/relayers/${relayerId}`);
    const table = 'Deliveries of its events, to every target that hears it';
    await tab.page.getByRole('table', { name: table }).waitFor();
    expect(await statusCells(tab, table)).toEqual(['pending']);
    await delivered('hook-slower', '/slower');
    await tab.page.clock.fastForward(15_000);
    expect(await settledTo(() => statusCells(tab, table), ['delivered'])).toEqual(['delivered']);
    expect(await recent(tab)).toBe('Updated 0 to 4 s ago');
  });

  it('shows a target paused elsewhere on the targets list, and when the list was last read', async () => {
    await app()
      .post('/api/v1/notifications', { id: 'hook-quiet', url: receiver.url('/quiet') })
      .expect(201);
    const tab = await openWithClock('#/notifications');
    const table = tab.page.getByRole('table', { name: 'Notification targets' });
    const states = () => table.locator('tbody tr td:nth-child(4)').allTextContents();
    expect(await settledTo(states, ['Running', 'Running', 'Running'])).toEqual([
      'Running',
      'Running',
      'Running',
    ]);
    expect(await recent(tab)).toBe('Updated 0 to 4 s ago');
    await app().post('/api/v1/notifications/hook-quiet/pause').expect(200);
    // The next round comes 15 s after the read ended; the clock, paused a moment after it, is moved
    // 5 s: the line counts (5 s plus that moment, seconds on a loaded machine) and the table still
    // shows what it read. 10 s more bring the round.
    await pauseClock(tab.page);
    await tab.page.clock.fastForward(5_000);
    const counting = () => settledTo(() => liveLineWithin(tab.page, 5, 14), 'Updated 5 to 14 s ago');
    expect(await counting()).toBe('Updated 5 to 14 s ago');
    expect(await states()).toEqual(['Running', 'Running', 'Running']);
    await tab.page.clock.fastForward(10_000);
    await tab.page.clock.resume();
    const after = ['Running', 'Running', 'Paused Failingpaused by hand'];
    expect(await settledTo(states, after)).toEqual(after);
    expect(await recent(tab)).toBe('Updated 0 to 4 s ago');
    expect(await seriousViolations(tab.page)).toEqual([]);
  });
});
