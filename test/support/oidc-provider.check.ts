// The self-check of test/support/oidc-provider.ts, run by hand (it matches no project's testMatch):
// NODE_OPTIONS=--experimental-vm-modules npx jest --selectProjects unit --rootDir . \
//   --testMatch '**/oidc-provider.check.ts'
import http from 'node:http';
import * as client from 'openid-client';
import { launchBrowser } from './browser';
import { realClock, stopClockAt } from './clock';
import { TestOidcProvider, type TokenFault } from './oidc-provider';

const CLIENT = {
  clientId: 'relayer-service',
  clientSecret: 'a-secret-of-the-test-client',
  redirectUri: 'http://127.0.0.1:3999/auth/callback',
  postLogoutRedirectUri: 'http://127.0.0.1:3999/signed-out',
};

let op: TestOidcProvider;
beforeAll(async () => {
  op = await TestOidcProvider.start(CLIENT);
});
afterAll(() => op.close());
afterEach(() => {
  op.setTokenFault(null);
  op.setDown(false);
});

const discover = (): Promise<client.Configuration> =>
  client.discovery(new URL(op.issuer), CLIENT.clientId, CLIENT.clientSecret, undefined, {
    execute: [client.allowInsecureRequests],
  });

/** The service's side of a sign-in up to the redirect: the authorization URL and what the callback checks. */
async function authorizationRequest(expectedState?: string) {
  const config = await discover();
  client.enableNonRepudiationChecks(config);
  const pkceCodeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: CLIENT.redirectUri,
    scope: 'openid email profile groups',
    code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const checks = {
    pkceCodeVerifier,
    expectedState: expectedState ?? state,
    expectedNonce: nonce,
    idTokenExpected: true,
  };
  return { config, url, checks };
}

/** One sign-in without a browser: the callback URL, and the code grant to run (again) on it. */
async function signIn(tamper?: (url: URL) => void, expectedState?: string) {
  const { config, url, checks } = await authorizationRequest(expectedState);
  const callback = new URL(await op.authorize(url.href, tamper));
  return { callback, checks, grant: () => client.authorizationCodeGrant(config, callback, checks) };
}

/** What openid-client throws: its class, `code`, OAuth `error` and the cause's message. */
async function thrown(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e as Error & { code?: string; error?: string; cause?: unknown },
  );
  const cause = error?.cause instanceof Error ? error.cause.message : error?.cause;
  return { class: error?.constructor.name, code: error?.code, error: error?.error, cause };
}

it('answers discovery as an OpenID provider of code + PKCE with RP-initiated logout', async () => {
  const response = await fetch(`${op.issuer}/.well-known/openid-configuration`);
  const metadata = (await response.json()) as { scopes_supported: string[] };
  expect(metadata).toMatchObject({
    issuer: op.issuer,
    jwks_uri: `${op.issuer}/jwks`,
    end_session_endpoint: `${op.issuer}/session/end`,
    code_challenge_methods_supported: ['S256'],
  });
  expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'profile', 'groups']));
});

it('signs in as the current account: its claims in the ID token, the code used once', async () => {
  const alice = {
    sub: 'alice',
    email: 'a@example.test',
    name: 'Alice',
    preferred_username: 'al',
    groups: ['admins'],
  };
  op.setAccount(alice);
  const { callback, grant } = await signIn();
  expect(callback.searchParams.get('iss')).toBe(op.issuer);
  const tokens = await grant();
  expect(tokens.claims()).toMatchObject({ iss: op.issuer, aud: CLIENT.clientId, ...alice });
  expect(await thrown(grant())).toMatchObject({
    class: 'ResponseBodyError',
    code: 'OAUTH_RESPONSE_BODY_ERROR',
    error: 'invalid_grant',
  });
});

it('signs in again as another account after setAccount', async () => {
  op.setAccount({ sub: 'bob', groups: ['viewers'] });
  const tokens = await (await signIn()).grant();
  expect(tokens.claims()).toMatchObject({ sub: 'bob', groups: ['viewers'] });
});

it.each<[TokenFault, string, string]>([
  [
    'expired',
    'OAUTH_JWT_TIMESTAMP_CHECK_FAILED',
    'unexpected JWT "exp" (expiration time) claim value, expiration is past current timestamp',
  ],
  ['wrong_audience', 'OAUTH_JWT_CLAIM_COMPARISON_FAILED', 'unexpected JWT "aud" (audience) claim value'],
  [
    'unknown_key',
    'OAUTH_KEY_SELECTION_FAILED',
    'error when selecting a JWT verification key, no applicable keys found',
  ],
])('a %s ID token is refused: %s', async (fault, code, cause) => {
  const { grant } = await signIn();
  op.setTokenFault(fault);
  expect(await thrown(grant())).toEqual({ class: 'ClientError', code, error: undefined, cause });
});

it('an ID token of another nonce is refused', async () => {
  const { grant } = await signIn((url) => url.searchParams.set('nonce', 'another-nonce'));
  expect(await thrown(grant())).toEqual({
    class: 'ClientError',
    code: 'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
    error: undefined,
    cause: 'unexpected ID Token "nonce" claim value',
  });
});

it('a callback of another state is refused', async () => {
  const { grant } = await signIn(undefined, 'another-state');
  expect(await thrown(grant())).toEqual({
    class: 'ClientError',
    code: 'OAUTH_INVALID_RESPONSE',
    error: undefined,
    cause: 'unexpected "state" response parameter value',
  });
});

it('accepts an ID token of an unknown key unless enableNonRepudiationChecks', async () => {
  const { callback, checks } = await signIn();
  op.setTokenFault('unknown_key');
  const tokens = await client.authorizationCodeGrant(await discover(), callback, checks);
  expect(tokens.claims()?.sub).toBe('bob');
});

it('while down, discovery fails with the 503 as cause; up again it answers', async () => {
  op.setDown(true);
  const down = await thrown(discover());
  expect(down).toMatchObject({ class: 'ClientError', code: 'OAUTH_RESPONSE_IS_NOT_CONFORM' });
  expect((down.cause as Response).status).toBe(503);
  op.setDown(false);
  await expect(discover()).resolves.toBeDefined();
});

it('keeps working while a test stops Date', async () => {
  const at = Date.parse('2030-01-01T00:00:00Z');
  stopClockAt(at);
  try {
    const tokens = await (await signIn()).grant();
    expect(tokens.claims()?.iat).toBe(at / 1000);
  } finally {
    realClock();
  }
});

it('a browser signs in by following redirects, again as another account, and signs out', async () => {
  // The service's pages the browser lands on (Playwright's routes miss the ends of redirect chains).
  const service = http.createServer((_req, res) => res.end('the service'));
  await new Promise<void>((resolve) => service.listen(3999, '127.0.0.1', resolve));
  const browser = await launchBrowser();
  try {
    const page = await (await browser.newContext()).newPage();
    const inBrowser = async (): Promise<
      client.TokenEndpointResponse & client.TokenEndpointResponseHelpers
    > => {
      const { config, url, checks } = await authorizationRequest();
      await page.goto(url.href);
      return client.authorizationCodeGrant(config, new URL(page.url()), checks);
    };
    op.setAccount({ sub: 'carol' });
    expect((await inBrowser()).claims()?.sub).toBe('carol');
    op.setAccount({ sub: 'dave' });
    const dave = await inBrowser();
    expect(dave.claims()?.sub).toBe('dave');
    const config = await discover();
    const logout = client.buildEndSessionUrl(config, {
      id_token_hint: dave.id_token ?? '',
      post_logout_redirect_uri: CLIENT.postLogoutRedirectUri,
    });
    await page.goto(logout.href);
    await page.waitForURL(`${CLIENT.postLogoutRedirectUri}**`);
  } finally {
    await browser.close();
    service.close();
  }
});
