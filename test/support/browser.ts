import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import CHROMIUM_ARGS from './chromium-args.json';
import type { TestApp } from './test-app';

/** Debian's chromium (installed by .ci/run: apt-get install chromium); CHROMIUM_PATH names another. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Viewport {
  readonly width: number;
  readonly height: number;
}
export const DESKTOP: Viewport = { width: 1280, height: 900 };
export const PHONE: Viewport = { width: 390, height: 844 };

/**
 * A new headless Chromium. The flags (chromium-args.json, which the benchmark reads too) keep it from
 * calling home (updates, sync, safe browsing): the tests check that every request the console makes
 * goes to the service.
 */
export function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `no Chromium at ${CHROMIUM}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
}

/** The Chromium of this jest file, and how many holders it has (acquireBrowser, releaseBrowser). */
let shared: { browser: Promise<Browser>; holders: number } | undefined;

/** The jest file's one Chromium, launched by its first holder. */
function acquireBrowser(): Promise<Browser> {
  shared ??= { browser: launchBrowser(), holders: 0 };
  shared.holders += 1;
  return shared.browser;
}

/** Lets go of the jest file's Chromium; the last holder closes it. */
async function releaseBrowser(): Promise<void> {
  if (!shared) return;
  shared.holders -= 1;
  if (shared.holders > 0) return;
  const { browser } = shared;
  shared = undefined;
  await (await browser).close();
}

/**
 * Keeps one Chromium for the whole jest file: a group of browser spec files (test/groups, `npm test`)
 * calls it first, so that its specs' describe blocks (useConsole) share it rather than each launching
 * its own. Each test still opens its tabs in fresh browser contexts (openConsole).
 */
export function shareBrowser(): void {
  beforeAll(async () => {
    await acquireBrowser();
  });
  afterAll(releaseBrowser);
}

/** A browser tab on the console, with every request it made. */
export interface ConsoleTab {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Every URL the page requested, in order. */
  readonly requests: string[];
  /** What the page wrote to its console as errors, and uncaught errors (a CSP violation shows here). */
  readonly errors: string[];
  close(): Promise<void>;
}

/** Opens the console of the app, at `hash` (e.g. `#/relayers`), in a fresh context (its own sessionStorage) at the viewport's size. */
export async function openConsole(
  browser: Browser,
  app: Pick<TestApp, 'baseUrl'>,
  viewport: Viewport = DESKTOP,
  hash = '',
): Promise<ConsoleTab> {
  const context = await browser.newContext({
    viewport,
    serviceWorkers: 'block',
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // A refused request (a 401 on a revoked key, a 403) is logged by the browser itself: not the page's error.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(message.text());
  });
  await page.goto(`${app.baseUrl}/console/${hash}`);
  return { context, page, requests, errors, close: () => context.close() };
}

/** Signs in with the key and waits for the first page the key may see. */
export async function signIn(tab: ConsoleTab, key: string): Promise<void> {
  await tab.page.getByLabel('API key').fill(key);
  await tab.page.getByRole('button', { name: 'Sign in' }).click();
  await tab.page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/**
 * A tab signed in with the key, on the console page at `hash` (e.g. `#/relayers`). The page is opened
 * there before signing in: the console then stays on it (it goes to the first section only from none).
 */
export async function consoleAs(
  browser: Browser,
  app: Pick<TestApp, 'baseUrl'>,
  key: string,
  hash = '',
  viewport: Viewport = DESKTOP,
): Promise<ConsoleTab> {
  const tab = await openConsole(browser, app, viewport, hash);
  await signIn(tab, key);
  return tab;
}

/** The requests that went anywhere but the service (data: URLs stay in the page). */
export function requestsElsewhere(tab: ConsoleTab, app: Pick<TestApp, 'baseUrl'>): string[] {
  return tab.requests.filter((url) => !url.startsWith(`${app.baseUrl}/`) && !url.startsWith('data:'));
}

/** The console tabs of a describe block, opened in its one Chromium (see useConsole). */
export interface ConsoleTabs {
  /** The block's Chromium (launched in beforeAll). */
  readonly browser: Browser;
  /** A tab signed in with the key, at `hash` (consoleAs), tracked. */
  open(key: string, hash?: string, viewport?: Viewport): Promise<ConsoleTab>;
  /** A tab on the sign-in page, at `hash` (openConsole), tracked. */
  openSignedOut(hash?: string, viewport?: Viewport): Promise<ConsoleTab>;
  /** Closes the tab after the test and checks it in afterAll. */
  track(tab: ConsoleTab): ConsoleTab;
}

/**
 * Gives a describe block the jest file's Chromium (launched for it, or shared: shareBrowser) and tracks
 * every tab it opens there: each test's tabs are closed after it, and afterAll checks that no tab of
 * the block ever requested another host, broke its policy or threw. Call it right after useTestApp, so
 * that its hooks run after the app's beforeAll.
 */
export function useConsole(app: () => Pick<TestApp, 'baseUrl'>): ConsoleTabs {
  let browser: Browser | undefined;
  /** Every tab the block opened, for afterAll. */
  const tabs: ConsoleTab[] = [];
  /** The tabs of the running test, closed after it. */
  const open: ConsoleTab[] = [];
  const started = (): Browser => {
    if (!browser) throw new Error('the browser has not started');
    return browser;
  };
  const track = (tab: ConsoleTab): ConsoleTab => {
    tabs.push(tab);
    open.push(tab);
    return tab;
  };

  beforeAll(async () => {
    browser = await acquireBrowser();
  });
  afterAll(async () => {
    if (browser) {
      browser = undefined;
      await releaseBrowser();
    }
    // No page of this block ever asked anything of another host.
    expect(tabs.flatMap((tab) => requestsElsewhere(tab, app()))).toEqual([]);
    // Nor broke its policy or threw.
    expect(tabs.flatMap((tab) => tab.errors)).toEqual([]);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((tab) => tab.close()));
  });

  return {
    get browser(): Browser {
      return started();
    },
    open: async (key, hash = '', viewport = DESKTOP) =>
      track(await consoleAs(started(), app(), key, hash, viewport)),
    openSignedOut: async (hash = '', viewport = DESKTOP) =>
      track(await openConsole(started(), app(), viewport, hash)),
    track,
  };
}

const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The serious and critical accessibility violations axe-core finds on the page as it is now. */
export async function seriousViolations(
  page: Page,
): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  await page.evaluate(AXE);
  // A string: these tests are typed for Node, the expression runs in the page.
  return page.evaluate<{ id: string; impact: string; nodes: string[] }[]>(`
    axe.run(document).then((result) =>
      result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => JSON.stringify(n.target)) })),
    )`);
}

/**
 * docs/console.md's screenshots: taken and written under docs/console/ when UPDATE_SCREENSHOTS=1, and
 * not taken otherwise (20 pictures a run that nobody kept; what the page shows is asserted beside them).
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  const width = page.viewportSize()?.width ?? 0;
  const image = await page.screenshot({ fullPage: false });
  const dir = path.resolve(__dirname, '..', '..', 'docs', 'console');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}-${width}.png`), image);
}

/**
 * Reads `read` until it answers `expected`, or for `timeoutMs` (5 s), then answers what it reads then
 * (the caller asserts it). Polled from here: the console's CSP refuses the eval that waitForFunction needs.
 */
export async function settledTo<T>(read: () => Promise<T>, expected: T, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (JSON.stringify(value) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

/** How many entries the page keeps in [sessionStorage, localStorage]. */
export function storedEntries(page: Page): Promise<[number, number]> {
  return page.evaluate<[number, number]>('[window.sessionStorage.length, window.localStorage.length]');
}

/** How wide the document is drawn: wider than the viewport means the page scrolls sideways. */
export function documentWidth(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth');
}

/**
 * The live line of a page that reads again by itself ("Updated 12 s ago", docs/console.md#32-live-pages),
 * as `Updated <from> to <to> s ago` when the age it says is within [from, to] seconds (`just now` is
 * 0), else as it reads. On Playwright's clock, which flows with real time until paused, a loaded
 * machine puts seconds between a read's end and the test's look: an exact age would race.
 */
export async function liveLineWithin(page: Page, from: number, to: number): Promise<string | null> {
  const line = await page.locator('main .live-status').textContent();
  const match = /^Updated (?:just now|(\d+) s ago)$/.exec(line ?? '');
  const age = match === null ? null : Number(match[1] ?? 0);
  return age !== null && age >= from && age <= to ? `Updated ${from} to ${to} s ago` : line;
}

/**
 * Stops the page's clock (installed with `page.clock.install()`) where it is: no live round comes until
 * the test moves it (`fastForward`). A paused page runs no effect (Preact's run after a frame), so the
 * test resumes the clock (`page.clock.resume()`) before it waits for a round's read.
 */
export async function pauseClock(page: Page): Promise<void> {
  // The page's time flows between the read and the pause: on a loaded machine past the 100 ms, which
  // Playwright refuses ("Cannot fast-forward to the past"); then it is read again.
  for (let attempt = 1; ; attempt++) {
    const at = await page.evaluate<number>('Date.now()');
    try {
      await page.clock.pauseAt(at + 100);
      return;
    } catch (error) {
      if (attempt >= 5 || !String(error).includes('Cannot fast-forward to the past')) throw error;
    }
  }
}

/**
 * The requests, each once, in the order first asked. An open page reads its data again 15 s after
 * its last read (docs/console.md#32-live-pages): a test on a loaded machine can outlast that, and
 * the round asks the same URLs again. A request the page should not make (another page, a read a
 * row, one a keystroke) has a URL of its own and still shows.
 */
export function distinct(urls: readonly string[]): string[] {
  return [...new Set(urls)];
}

/**
 * Waits until no element of the page shows `text` (a row's "Loading state and stats…"), for up to
 * `timeoutMs` (15 s: each row reads on its own, and on a loaded machine the last can come seconds
 * after the first); fails naming the text if some still show then.
 */
export async function noneShowing(page: Page, text: string, timeoutMs = 15_000): Promise<void> {
  const left = await settledTo(() => page.getByText(text).count(), 0, timeoutMs);
  if (left !== 0) throw new Error(`${left} element(s) still show "${text}" after ${timeoutMs} ms`);
}

/** The text of each cell (`th` and `td`) of the body rows of the table named `name`, row by row. */
export function tableCells(page: Page, name: string): Promise<string[][]> {
  return page
    .getByRole('table', { name })
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? '')),
    );
}

/** A list of facts (a `dl`) as [term, definition] pairs, in order. */
export function factsOf(list: Locator): Promise<[string | null, string | null | undefined][]> {
  return list.evaluate((dl) =>
    [...dl.querySelectorAll('dt')].map((dt): [string | null, string | null | undefined] => [
      dt.textContent,
      dt.nextElementSibling?.textContent,
    ]),
  );
}
