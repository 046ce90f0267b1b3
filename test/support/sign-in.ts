import { randomBytes } from 'node:crypto';
import net from 'node:net';
import request from 'supertest';
import { TestOidcProvider, type TestAccount } from './oidc-provider';
import { secrets } from './secrets';
import type { Env, TestApp } from './test-app';

/** A free loopback port: the service's, named in PUBLIC_URL before it starts (the provider registers it). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The identity provider of a test and the variables that point the service at it (docs/access.md). */
export interface SignInSetup {
  readonly provider: TestOidcProvider;
  readonly publicUrl: string;
  readonly clientId: string;
  /** The service's variables: PORT, PUBLIC_URL and the AUTH_OIDC_* ones. */
  readonly env: Env;
}

/** Starts a provider whose client is a service to listen on a port chosen now. */
export async function startSignIn(extra: Env = {}): Promise<SignInSetup> {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const clientId = 'relayer-service';
  const clientSecret = secrets.add(randomBytes(24).toString('base64url'));
  const provider = await TestOidcProvider.start({
    clientId,
    clientSecret,
    redirectUri: `${publicUrl}/api/v1/auth/callback`,
    postLogoutRedirectUri: `${publicUrl}/console/`,
  });
  return {
    provider,
    publicUrl,
    clientId,
    env: {
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      AUTH_OIDC_ISSUER: provider.issuer,
      AUTH_OIDC_CLIENT_ID: clientId,
      AUTH_OIDC_CLIENT_SECRET: clientSecret,
      AUTH_OIDC_NAME: 'Test IdP',
      AUTH_OIDC_SCOPES: 'openid email profile groups',
      ...extra,
    },
  };
}

/** A cookie's value in Set-Cookie headers, and the whole header it came in. */
export function setCookie(headers: unknown, name: string): { value: string; header: string } | null {
  const list = Array.isArray(headers) ? (headers as string[]) : typeof headers === 'string' ? [headers] : [];
  const header = list.find((h) => h.startsWith(`${name}=`));
  return header ? { value: header.slice(name.length + 1).split(';')[0], header } : null;
}

export const SESSION_COOKIE = '__Host-relayer_session';
export const SIGN_IN_COOKIE = '__Host-relayer_sign_in';

/** The steps of one sign-in through the service and the provider, without a browser. */
export interface SignInSteps {
  /** GET /api/v1/auth/login: where it sent the browser and the sign-in cookie it set. */
  login(): Promise<{ location: string; state: string }>;
  /** GET the callback URL (the provider's redirect, or any) with a sign-in cookie. */
  callback(url: string, state: string | null): Promise<request.Response>;
}

export function signInSteps(app: TestApp): SignInSteps {
  return {
    async login() {
      const res = await request(app.baseUrl).get('/api/v1/auth/login').expect(302);
      const cookie = setCookie(res.headers['set-cookie'], SIGN_IN_COOKIE);
      if (!cookie) throw new Error('no sign-in cookie');
      return { location: String(res.headers.location), state: cookie.value };
    },
    async callback(url, state) {
      const { pathname, search, searchParams } = new URL(url);
      // What the browser carries back: never to reach a log or an answer.
      for (const name of ['code', 'state']) {
        const value = searchParams.get(name);
        if (value && value.length >= 16) secrets.add(value);
      }
      const test = request(app.baseUrl).get(`${pathname}${search}`);
      return state === null ? test : test.set('Cookie', `${SIGN_IN_COOKIE}=${state}`);
    },
  };
}

/** A signed-in person: the session cookie's value and the CSRF token of their writes. */
export interface Person {
  readonly cookie: string;
  readonly csrf: string;
}

/** Signs `account` in through the whole flow; fails unless the callback starts a session. */
export async function signIn(app: TestApp, setup: SignInSetup, account: TestAccount): Promise<Person> {
  setup.provider.setAccount(account);
  const steps = signInSteps(app);
  const { location, state } = await steps.login();
  const res = await steps.callback(await setup.provider.authorize(location), state);
  const session = setCookie(res.headers['set-cookie'], SESSION_COOKIE);
  if (res.status !== 302 || !session) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  const cookie = secrets.add(session.value);
  const me = await request(app.baseUrl)
    .get('/api/v1/auth/session')
    .set('Cookie', `${SESSION_COOKIE}=${cookie}`);
  if (me.status !== 200) throw new Error(`no session after sign-in: ${me.status} ${me.text}`);
  return { cookie, csrf: secrets.add((me.body as { data: { csrf_token: string } }).data.csrf_token) };
}

/** supertest against the app as a signed-in person: their cookie, and the CSRF token on every request. */
export const asPerson = (app: TestApp, person: Person, options: { csrf?: boolean } = {}) => {
  const auth = (test: request.Test) => {
    test.set('Cookie', `${SESSION_COOKIE}=${person.cookie}`);
    return options.csrf === false ? test : test.set('X-CSRF-Token', person.csrf);
  };
  return {
    get: (path: string) => auth(request(app.baseUrl).get(path)),
    post: (path: string, body?: object) => auth(request(app.baseUrl).post(path)).send(body ?? {}),
    patch: (path: string, body: object) => auth(request(app.baseUrl).patch(path)).send(body),
    put: (path: string, body: object) => auth(request(app.baseUrl).put(path)).send(body),
    delete: (path: string) => auth(request(app.baseUrl).delete(path)),
  };
};
