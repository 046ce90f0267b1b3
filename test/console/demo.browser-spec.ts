import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { DESKTOP, PHONE, screenshot, useConsole } from '../support/browser';
import { freePort, PROJECT_ROOT } from '../support/service-process';
import { waitFor } from '../support/wait';

// `npm run demo` (scripts/demo.ts) as a new operator meets it: the fleet it prints is the one the
// console shows. 48 relayers, 4 on each of its 12 networks: the states fall where the script puts them
// (one in 11 paused, one in 17 on a dead RPC URL, one in 7 under its network's alert where it has one).
// With UPDATE_SCREENSHOTS=1 it makes the demo's own 300 and writes docs/console.md's screenshots of
// the pages an operator starts from (test/support/browser.ts: screenshot).
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';
const RELAYERS = SCREENSHOTS ? 300 : 48;

describe('npm run demo', () => {
  let demo: ChildProcess;
  let output = '';
  let baseUrl = '';
  const tabs = useConsole(() => ({ baseUrl }));

  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    demo = spawn(
      path.join(PROJECT_ROOT, 'node_modules', '.bin', 'ts-node-transpile-only'),
      ['scripts/demo.ts', '--relayers', String(RELAYERS), '--port', String(port)],
      { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    demo.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    // Its start compiles scripts/demo.ts and starts 12 local nodes: 20 s on a quiet machine, more
    // than 90 s on a CI machine loaded by the rest of the suite (it timed out there at 90 s).
    await waitFor('the demo to be seeded', () => output.includes('Ctrl-C'), {
      timeoutMs: 200_000,
      detail: () => `its output so far:\n${output}`,
    });
  }, 240_000);

  afterAll(async () => {
    // A demo that stopped by itself (it failed) sends no second 'exit': waiting for one timed the hook out.
    if (demo.exitCode !== null || demo.signalCode !== null) return;
    demo.kill('SIGINT');
    await new Promise((resolve) => demo.once('exit', resolve));
  });

  it('prints the fleet it made, the console address and a key that signs in to it', async () => {
    const fleet = /The demo fleet: (\{.*\})/.exec(output)?.[1];
    expect(JSON.parse(fleet ?? 'null')).toEqual(
      SCREENSHOTS
        ? { total: 300, enabled: 257, paused: 27, disabled: 18, low_balance: 25, unchecked: 0 }
        : { total: 48, enabled: 41, paused: 4, disabled: 3, low_balance: 5, unchecked: 0 },
    );
    expect(output).toContain(`Console   ${baseUrl}/console/`);
    const key = /API key {3}(\S+)/.exec(output)?.[1] ?? '';
    const tab = await tabs.open(key, '#/relayers');
    await tab.page.getByRole('link', { name: 'payments mainnet #1', exact: true }).waitFor();
  });

  it('draws the pages an operator starts from with the fleet (the screenshots of docs/console.md)', async () => {
    const key = /API key {3}(\S+)/.exec(output)?.[1] ?? '';
    const pages: Array<[string, string, string]> = [
      ['relayers', '#/relayers', 'payments mainnet #1'],
      ['relayer', '#/relayers/payments-mainnet-1', 'payments mainnet #1'],
      ['notifications', '#/notifications', 'partner-acme'],
      ['notification', '#/notifications/partner-acme', 'partner-acme'],
      ['networks', '#/networks', 'mainnet-beta'],
    ];
    for (const viewport of [DESKTOP, PHONE])
      for (const [name, hash, text] of pages) {
        const tab = await tabs.open(key, hash, viewport);
        await tab.page.getByText(text, { exact: true }).first().waitFor();
        await tab.page
          .getByText(/^Loading/)
          .first()
          .waitFor({ state: 'detached' });
        await screenshot(tab.page, name);
        await tab.close();
      }
  });
});
