import type { Request } from 'playwright-core';
import { createRelayer } from '../factories';
import { openConsole, seriousViolations, useConsole, type ConsoleTab } from '../support/browser';
import { SESSION_COOKIE, startSignIn, type SignInSetup } from '../support/sign-in';
import { useTestApp } from '../support/test-app';

const ADA = { sub: 'ada-1', email: 'ada@example.com', name: 'Ada', groups: ['relayer-ops'] };
const OPS_ROLE = { id: 'ops', permissions: ['relayers:read', 'relayers:write'], groups: ['relayer-ops'] };

/**
 * docs/console.md#1-opening-it: a person signs in to the console through the identity provider (a real
 * one, run by the test) and works with the session cookie and its CSRF token; with
 * CONSOLE_API_KEY_SIGN_IN=false the console offers no key form at all. Key sign-in: console.browser-spec.ts.
 */
describe('the operator console: signing in through the identity provider', () => {
  let setup: SignInSetup;
  beforeAll(async () => {
    setup = await startSignIn({ CONSOLE_API_KEY_SIGN_IN: 'false' });
  });
  const handle = useTestApp(() => setup.env);
  const app = () => handle.current;
  const consoleTabs = useConsole(app);
  const tabs: ConsoleTab[] = [];
  let relayerId: string;

  beforeAll(async () => {
    // The app listens where PUBLIC_URL says: the provider sends the browser back there.
    expect(app().baseUrl).toBe(setup.publicUrl);
    await app().post('/api/v1/roles', OPS_ROLE).expect(201);
    setup.provider.setAccount(ADA);
    relayerId = ((await createRelayer(app(), 'evm', { name: 'ops relayer' })) as { id: string }).id;
  });
  afterEach(async () => {
    for (const tab of tabs.splice(0)) {
      await tab.close();
      // Every request went to the service or the provider; no page threw or broke its policy.
      const elsewhere = tab.requests.filter(
        (url) => !url.startsWith(`${setup.publicUrl}/`) && !url.startsWith(`${setup.provider.issuer}/`),
      );
      expect([elsewhere, tab.errors]).toEqual([[], []]);
    }
  });
  afterAll(async () => {
    await setup.provider.close();
  });

  /** A tab on the console's sign-in page, at the address the provider sends people back to. */
  const openSignedOut = async (): Promise<ConsoleTab> => {
    const tab = await openConsole(consoleTabs.browser, { baseUrl: setup.publicUrl });
    tabs.push(tab);
    return tab;
  };
  /** The service's cookies (cookies ignore ports: the provider's, on the same host, are left out). */
  const serviceCookies = async (tab: ConsoleTab) =>
    (await tab.context.cookies(setup.publicUrl)).filter(({ name }) => name.startsWith('__Host-relayer'));
  /** Through the provider (it signs Ada in at once) and back, signed in. */
  const signInAsAda = async (tab: ConsoleTab) => {
    await tab.page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await tab.page.getByRole('button', { name: 'Sign out' }).waitFor();
  };

  it('offers only the identity provider when CONSOLE_API_KEY_SIGN_IN is false: no key form', async () => {
    const tab = await openSignedOut();
    const link = tab.page.getByRole('link', { name: 'Sign in with Test IdP' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('/api/v1/auth/login');
    expect(await tab.page.locator('form, input').count()).toBe(0);
    expect(await tab.page.getByLabel('API key').count()).toBe(0);
    expect(await seriousViolations(tab.page)).toEqual([]);
  });

  it('signs a person in with a session cookie, writes with its CSRF token, and signs out at the provider too', async () => {
    const tab = await openSignedOut();
    const apiCalls: Request[] = [];
    tab.page.on('request', (request) => {
      if (request.url().startsWith(`${setup.publicUrl}/api/v1/`)) apiCalls.push(request);
    });
    await signInAsAda(tab);
    expect(await tab.page.locator('header .who span').first().textContent()).toBe(
      'Signed in as ada@example.com (roles: ops)',
    );
    // The session is the HttpOnly cookie; the tab keeps nothing itself.
    expect(
      (await serviceCookies(tab)).map(({ name, httpOnly, secure, sameSite }) => ({
        name,
        httpOnly,
        secure,
        sameSite,
      })),
    ).toEqual([{ name: SESSION_COOKIE, httpOnly: true, secure: true, sameSite: 'Strict' }]);
    expect(await tab.page.evaluate<number>('window.sessionStorage.length')).toBe(0);
    // What the role grants drives the sections: relayers only, and their table loads.
    expect(
      await tab.page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents(),
    ).toEqual(['Relayers']);
    await tab.page.locator('main table tbody tr').filter({ hasText: relayerId }).waitFor();

    // A write: pausing the relayer, with the session's CSRF token (the API refuses it without).
    await tab.page.goto(`${setup.publicUrl}/console/#/relayers/${relayerId}`);
    await tab.page.getByRole('button', { name: 'Pause', exact: true }).click();
    await tab.page.getByRole('alertdialog').getByRole('button', { name: 'Pause ops relayer' }).click();
    await tab.page
      .locator('section[aria-labelledby="relayer-facts"] .outcome')
      .filter({ hasText: 'Paused: the relayer takes no work.' })
      .waitFor();
    expect(
      ((await app().get(`/api/v1/relayers/${relayerId}`).expect(200)).body.data as { paused: boolean })
        .paused,
    ).toBe(true);
    const { csrf_token: csrf } = (
      await tab.page.evaluate<{ data: { csrf_token: string } }>(
        "fetch('/api/v1/auth/session').then((response) => response.json())",
      )
    ).data;
    const writes = apiCalls.filter((call) => call.method() !== 'GET');
    expect(
      await Promise.all(
        writes.map(async (call) => [
          call.method(),
          new URL(call.url()).pathname,
          await call.headerValue('x-csrf-token'),
        ]),
      ),
    ).toEqual([['PATCH', `/api/v1/relayers/${relayerId}`, csrf]]);
    // No call carried a key: the cookie went by itself.
    expect(
      (await Promise.all(apiCalls.map((call) => call.headerValue('authorization')))).filter(
        (h) => h !== null,
      ),
    ).toEqual([]);

    // Signing out ends the session, then the provider's (its page confirms and sends the browser back).
    const before = tab.requests.length;
    await tab.page.getByRole('button', { name: 'Sign out' }).click();
    await tab.page.waitForURL(`${setup.publicUrl}/console/`);
    expect(tab.requests.slice(before).map((url) => new URL(url).pathname)).toEqual(
      expect.arrayContaining(['/api/v1/auth/logout', '/session/end', '/console/']),
    );
    await tab.page.getByRole('link', { name: 'Sign in with Test IdP' }).waitFor();
    expect(await serviceCookies(tab)).toEqual([]);
  });

  it('goes back to the sign-in page, saying so, when the session is ended meanwhile (401)', async () => {
    const tab = await openSignedOut();
    await signInAsAda(tab);
    const sessions = (await app().get('/api/v1/sessions').expect(200)).body.data as { id: string }[];
    for (const { id } of sessions) await app().delete(`/api/v1/sessions/${id}`).expect(200);
    await tab.page.goto(`${setup.publicUrl}/console/#/relayers/${relayerId}`);
    await expect(tab.page.getByRole('alert').textContent()).resolves.toBe(
      'Your session has ended (it expired, or it was ended elsewhere). Sign in again.',
    );
    await tab.page.getByRole('link', { name: 'Sign in with Test IdP' }).waitFor();
  });
});
