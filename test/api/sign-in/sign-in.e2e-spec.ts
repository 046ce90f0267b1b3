import request from 'supertest';
import { createKey, ISO, relayerBody, UUID } from '../../factories';
import { as } from '../../support/as-key';
import { realClock, stopClockAt } from '../../support/clock';
import { expectError, successBody } from '../../support/envelope';
import { secrets } from '../../support/secrets';
import {
  asPerson,
  SESSION_COOKIE,
  setCookie,
  SIGN_IN_COOKIE,
  signIn,
  signInSteps,
  startSignIn,
  type SignInSetup,
} from '../../support/sign-in';
import { newApiKey, startTestApp, type TestApp } from '../../support/test-app';
import { createTestDatabase, type TestDatabase } from '../../support/test-database';

/**
 * docs/access.md#signing-in-with-your-identity-provider: people sign in
 * through a real OpenID provider run by the test (oidc-provider, certified), get what their roles
 * grant, hold a session in the database that every instance honours, and are audited by name.
 */

const ADA = { sub: 'ada-1', email: 'ada@example.com', name: 'Ada', groups: ['relayer-ops'] };
const BOB = { sub: 'bob-2', email: 'bob@example.com', name: 'Bob', groups: ['team-a'] };
const EVE = { sub: 'eve-3', email: 'eve@example.com', name: 'Eve', groups: ['marketing'] };
const HOUR = 3_600_000;
const MINUTE = 60_000;

const OPS_ROLE = {
  id: 'ops',
  permissions: ['relayers:read', 'relayers:write', 'audit:read'],
  groups: ['relayer-ops'],
};
const TEAM_ROLE = {
  id: 'team-a',
  permissions: ['relayers:read'],
  relayer_ids: ['team-a-*'],
  groups: ['team-a'],
};

describe('sign-in with the identity provider (docs/access.md#signing-in-with-your-identity-provider)', () => {
  let setup: SignInSetup;
  let database: TestDatabase;
  let app: TestApp;
  const apps: TestApp[] = [];
  const apiKey = newApiKey();
  const start = async (env: Record<string, string> = {}) => {
    const started = await startTestApp({
      DATABASE_URL: database.url,
      API_KEY: apiKey,
      ...setup.env,
      ...env,
    });
    apps.push(started);
    return started;
  };

  beforeAll(async () => {
    setup = await startSignIn();
    database = await createTestDatabase();
    app = await start();
    await app.post('/api/v1/roles', OPS_ROLE).expect(201);
    await app.post('/api/v1/roles', TEAM_ROLE).expect(201);
    for (const id of ['team-a-1', 'team-b-1'])
      await app.post('/api/v1/relayers', relayerBody('evm', { id })).expect(201);
  });
  afterAll(async () => {
    realClock();
    for (const started of apps) {
      await started.close();
      expect(secrets.foundIn(started.logText())).toEqual([]);
    }
    await database.drop();
    await setup.provider.close();
  });
  afterEach(() => {
    realClock();
    setup.provider.setTokenFault(null);
  });

  const audit = async (action: string) =>
    (await app.get(`/api/v1/audit?action=${action}&per_page=100`).expect(200)).body.data as Array<
      Record<string, unknown>
    >;

  describe('the whole flow', () => {
    it('login redirects to the provider with PKCE, state and nonce; the callback starts a session and lands on the console', async () => {
      setup.provider.setAccount(ADA);
      const steps = signInSteps(app);
      const login = await request(app.baseUrl).get('/api/v1/auth/login').expect(302);
      const signInCookie = setCookie(login.headers['set-cookie'], SIGN_IN_COOKIE);
      expect(signInCookie?.header).toMatch(/; Path=\/; .*HttpOnly; Secure; SameSite=Lax$/);
      const location = new URL(String(login.headers.location));
      expect(`${location.origin}${location.pathname}`).toBe(`${setup.provider.issuer}/auth`);
      expect(Object.fromEntries(location.searchParams)).toEqual({
        client_id: 'relayer-service',
        redirect_uri: `${setup.publicUrl}/api/v1/auth/callback`,
        response_type: 'code',
        scope: 'openid email profile groups',
        state: signInCookie?.value,
        nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        code_challenge_method: 'S256',
      });
      const res = await steps.callback(await setup.provider.authorize(location.href), signInCookie!.value);
      expect({ status: res.status, location: res.headers.location }).toEqual({
        status: 302,
        location: `${setup.publicUrl}/console/`,
      });
      const session = setCookie(res.headers['set-cookie'], SESSION_COOKIE);
      expect(session?.header).toMatch(
        /^__Host-relayer_session=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; Expires=.+; HttpOnly; Secure; SameSite=Strict$/,
      );
      secrets.add(session!.value);
      const me = await request(app.baseUrl)
        .get('/api/v1/auth/session')
        .set('Cookie', `${SESSION_COOKIE}=${session!.value}`);
      expect({ status: me.status, body: me.body }).toEqual({
        status: 200,
        body: successBody({
          user: { id: `${setup.provider.issuer}#ada-1`, name: 'ada@example.com', email: 'ada@example.com' },
          roles: ['ops'],
          permissions: ['relayers:read', 'relayers:write', 'audit:read'],
          relayer_ids: null,
          csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          idle_expires_at: ISO,
          expires_at: ISO,
        }),
      });
      const self = await request(app.baseUrl)
        .get('/api/v1/api-keys/self')
        .set('Cookie', `${SESSION_COOKIE}=${session!.value}`);
      expect(self.body).toEqual(
        successBody({
          type: 'user',
          id: `${setup.provider.issuer}#ada-1`,
          name: 'ada@example.com',
          permissions: ['relayers:read', 'relayers:write', 'audit:read'],
          // When the credential used stops working: the session's absolute expiry.
          expires_at: ISO,
        }),
      );
      const created = (await audit('session.create')).find(
        (record) => (record.actor as { id: string }).id === `${setup.provider.issuer}#ada-1`,
      );
      expect(created).toMatchObject({
        actor: { type: 'user', id: `${setup.provider.issuer}#ada-1`, name: 'ada@example.com' },
        action: 'session.create',
        resource_type: 'session',
      });
    });

    it("a person's change is audited as theirs: type user, <issuer>#<sub>, their email", async () => {
      const ada = await signIn(app, setup, ADA);
      await asPerson(app, ada).patch('/api/v1/relayers/team-b-1', { name: 'renamed by ada' }).expect(200);
      const [record] = (await app.get('/api/v1/audit?resource_id=team-b-1&action=relayer.update').expect(200))
        .body.data as Array<Record<string, unknown>>;
      expect(record.actor).toEqual({
        type: 'user',
        id: `${setup.provider.issuer}#ada-1`,
        name: 'ada@example.com',
      });
    });
  });

  describe('a refused callback: 400 naming why, no session, audited when this browser started the sign-in', () => {
    const refusedWith = async (
      reason: string,
      spoil: {
        state?: (state: string) => string | null;
        tamper?: (url: URL) => void;
        fault?: 'expired' | 'wrong_audience' | 'unknown_key';
      },
    ) => {
      setup.provider.setAccount(ADA);
      if (spoil.fault) setup.provider.setTokenFault(spoil.fault);
      const steps = signInSteps(app);
      const { location, state } = await steps.login();
      const callback = await setup.provider.authorize(location, spoil.tamper);
      const cookieState = spoil.state ? spoil.state(state) : state;
      const before = (await audit('session.refuse')).length;
      const res = await steps.callback(callback, cookieState);
      expectError(res, 400, `Sign-in failed: ${reason}`);
      expect(setCookie(res.headers['set-cookie'], SESSION_COOKIE)).toBeNull();
      const refusals = await audit('session.refuse');
      if (spoil.state) {
        // Not this browser's sign-in: a stranger's request writes nothing to the trail (it is logged).
        expect(refusals.length).toBe(before);
      } else {
        expect(refusals[0].after).toEqual({ reason });
      }
      return res;
    };

    it('a state that is not this browser’s (tampered, or no sign-in cookie)', async () => {
      await refusedWith('the state does not match this browser’s sign-in', {
        state: (s) => `${s.slice(0, -1)}${s.endsWith('A') ? 'B' : 'A'}`,
      });
      await refusedWith('the state does not match this browser’s sign-in', { state: () => null });
    });

    it('a wrong nonce', async () => {
      await refusedWith("the ID token's nonce claim does not match this sign-in", {
        tamper: (url) => url.searchParams.set('nonce', 'another-sign-ins-nonce'),
      });
    });

    it('an expired ID token, a wrong audience, a key the provider does not publish', async () => {
      await refusedWith('the ID token has expired', { fault: 'expired' });
      await refusedWith("the ID token's aud claim does not match this sign-in", { fault: 'wrong_audience' });
      await refusedWith('the ID token is not signed by a key of the provider', { fault: 'unknown_key' });
    });

    it('a replayed callback (used state), and a used code under a fresh sign-in', async () => {
      setup.provider.setAccount(ADA);
      const steps = signInSteps(app);
      const first = await steps.login();
      const callback = await setup.provider.authorize(first.location);
      expect((await steps.callback(callback, first.state)).status).toBe(302);
      expectError(
        await steps.callback(callback, first.state),
        400,
        'Sign-in failed: unknown or expired state',
      );
      const second = await steps.login();
      const code = new URL(callback).searchParams.get('code')!;
      const replayed = new URL(callback);
      replayed.search = new URLSearchParams({
        code,
        state: second.state,
        iss: setup.provider.issuer,
      }).toString();
      expectError(
        await steps.callback(replayed.href, second.state),
        400,
        'Sign-in failed: the provider refused the code (invalid_grant)',
      );
    });

    it('no role: 403 naming the person, audited with them as actor', async () => {
      setup.provider.setAccount(EVE);
      const steps = signInSteps(app);
      const { location, state } = await steps.login();
      const res = await steps.callback(await setup.provider.authorize(location), state);
      expectError(res, 403, 'No role grants eve@example.com access');
      expect(setCookie(res.headers['set-cookie'], SESSION_COOKIE)).toBeNull();
      const refused = (await audit('session.refuse')).find(
        (record) => (record.after as { reason: string }).reason === 'no role',
      );
      expect(refused?.actor).toEqual({
        type: 'user',
        id: `${setup.provider.issuer}#eve-3`,
        name: 'eve@example.com',
      });
    });
  });

  describe('roles apply at once', () => {
    it("a person's scope: only their team's relayers, others 404, as a key's", async () => {
      const bob = await signIn(app, setup, BOB);
      const list = await asPerson(app, bob).get('/api/v1/relayers').expect(200);
      expect((list.body.data as Array<{ id: string }>).map((r) => r.id)).toEqual(['team-a-1']);
      expectError(
        await asPerson(app, bob).get('/api/v1/relayers/team-b-1'),
        404,
        'Relayer with ID team-b-1 not found',
      );
    });

    it('a role change takes effect at the next request; a person left with no role is signed out (401) and the session ends', async () => {
      await app
        .post('/api/v1/roles', { id: 'carol-team', permissions: ['relayers:read'], groups: ['carols'] })
        .expect(201);
      const carol = await signIn(app, setup, {
        sub: 'carol-4',
        email: 'carol@example.com',
        groups: ['carols'],
      });
      expectError(
        await asPerson(app, carol).patch('/api/v1/relayers/team-a-1', { name: 'x' }),
        403,
        'Forbidden',
      );
      await app
        .patch('/api/v1/roles/carol-team', { permissions: ['relayers:read', 'relayers:write'] })
        .expect(200);
      await asPerson(app, carol).patch('/api/v1/relayers/team-a-1', { name: 'carol was here' }).expect(200);
      await app.patch('/api/v1/roles/carol-team', { groups: ['nobody'] }).expect(200);
      expectError(await asPerson(app, carol).get('/api/v1/relayers'), 401, 'Unauthorized');
      const ended = (await audit('session.delete')).find(
        (record) => (record.after as { reason?: string }).reason === 'no_role',
      );
      expect(ended?.actor).toEqual({ type: 'system', id: 'system', name: 'service' });
    });
  });

  describe('CSRF', () => {
    it('a cookie-authenticated write without X-CSRF-Token, or with a wrong one, is 403; reads need none', async () => {
      const ada = await signIn(app, setup, ADA);
      const message = 'Forbidden: a request signed in with a session cookie must carry its X-CSRF-Token';
      expectError(
        await asPerson(app, ada, { csrf: false }).patch('/api/v1/relayers/team-a-1', { name: 'csrf' }),
        403,
        message,
      );
      expectError(
        await asPerson(app, {
          ...ada,
          csrf: `${ada.csrf.slice(0, -1)}${ada.csrf.endsWith('A') ? 'B' : 'A'}`,
        }).patch('/api/v1/relayers/team-a-1', { name: 'csrf' }),
        403,
        message,
      );
      await asPerson(app, ada, { csrf: false }).get('/api/v1/relayers/team-a-1').expect(200);
      await asPerson(app, ada).patch('/api/v1/relayers/team-a-1', { name: 'csrf ok' }).expect(200);
    });

    it('a bearer key is never mixed with a cookie: with an Authorization header the cookie is not read', async () => {
      const ada = await signIn(app, setup, ADA);
      const res = await request(app.baseUrl)
        .get('/api/v1/relayers')
        .set('Cookie', `${SESSION_COOKIE}=${ada.cookie}`)
        .set('Authorization', 'Bearer wrong');
      expectError(res, 401, 'Unauthorized');
    });
  });

  describe('logout and administrators', () => {
    it("logout ends the session, clears the cookie and answers the provider's end-session URL", async () => {
      const ada = await signIn(app, setup, ADA);
      const res = await asPerson(app, ada).post('/api/v1/auth/logout').expect(200);
      const endSession = new URL(`${setup.provider.issuer}/session/end`);
      endSession.search = new URLSearchParams({
        client_id: 'relayer-service',
        post_logout_redirect_uri: `${setup.publicUrl}/console/`,
      }).toString();
      expect(res.body).toEqual(successBody({ end_session_url: endSession.href }));
      expect(setCookie(res.headers['set-cookie'], SESSION_COOKIE)?.header).toMatch(
        /^__Host-relayer_session=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Strict$/,
      );
      expectError(await asPerson(app, ada).get('/api/v1/auth/session'), 401, 'Unauthorized');
    });

    it('GET /sessions lists live sessions; DELETE /sessions/{id} ends one at once; a key gets 404 from /auth/session', async () => {
      const bob = await signIn(app, setup, BOB);
      const list = await app.get('/api/v1/sessions?per_page=100').expect(200);
      const mine = (list.body.data as Array<{ id: string; user: { id: string } }>).filter(
        (s) => s.user.id === `${setup.provider.issuer}#bob-2`,
      );
      expect(mine.at(-1)).toEqual({
        id: UUID,
        user: { id: `${setup.provider.issuer}#bob-2`, name: 'bob@example.com', email: 'bob@example.com' },
        created_at: ISO,
        last_used_at: ISO,
        idle_expires_at: ISO,
        expires_at: ISO,
      });
      for (const session of mine) {
        expect((await app.delete(`/api/v1/sessions/${session.id}`).expect(200)).body).toEqual(
          successBody('Session ended successfully'),
        );
      }
      expectError(await asPerson(app, bob).get('/api/v1/relayers'), 401, 'Unauthorized');
      expectError(await app.delete(`/api/v1/sessions/${mine[0].id}`), 404, 'Session not found');
      expectError(await app.get('/api/v1/auth/session'), 404, 'Session not found');
    });
  });

  describe('expiry, with the clock controlled', () => {
    it('idle: each request moves it on; 30 minutes without one end it', async () => {
      const t0 = Date.now();
      stopClockAt(t0);
      const ada = await signIn(app, setup, ADA);
      jest.setSystemTime(t0 + 29 * MINUTE);
      await asPerson(app, ada).get('/api/v1/relayers').expect(200);
      jest.setSystemTime(t0 + 58 * MINUTE);
      const me = await asPerson(app, ada).get('/api/v1/auth/session').expect(200);
      expect((me.body.data as { idle_expires_at: string }).idle_expires_at).toBe(
        new Date(t0 + 88 * MINUTE).toISOString(),
      );
      jest.setSystemTime(t0 + 88 * MINUTE + 1);
      expectError(await asPerson(app, ada).get('/api/v1/relayers'), 401, 'Unauthorized');
    });

    it('absolute: 12 hours after sign-in, however active', async () => {
      const t0 = Date.now();
      stopClockAt(t0);
      const ada = await signIn(app, setup, ADA);
      for (let at = 20 * MINUTE; at < 12 * HOUR; at += 20 * MINUTE) {
        jest.setSystemTime(t0 + at);
        await asPerson(app, ada).get('/api/v1/relayers').expect(200);
      }
      jest.setSystemTime(t0 + 12 * HOUR);
      expectError(await asPerson(app, ada).get('/api/v1/relayers'), 401, 'Unauthorized');
    });
  });

  describe('every instance, and a restart', () => {
    it('a session started on one instance works on another; ended on one, refused by the other at once', async () => {
      const other = await start({ PORT: '0' });
      const ada = await signIn(app, setup, ADA);
      await asPerson(other, ada).get('/api/v1/relayers').expect(200);
      await asPerson(app, ada).post('/api/v1/auth/logout').expect(200);
      expectError(await asPerson(other, ada).get('/api/v1/relayers'), 401, 'Unauthorized');
    });

    it('a restart keeps every session', async () => {
      const ada = await signIn(app, setup, ADA);
      const port = app.port;
      await app.close();
      app = await start({ PORT: String(port) });
      await asPerson(app, ada).get('/api/v1/relayers').expect(200);
    });
  });

  describe('the provider unreachable', () => {
    it('login answers 503 until discovery succeeds, retried by itself', async () => {
      const down = await startSignIn();
      down.provider.setDown(true);
      const service = await start({ ...down.env, PORT: '0' });
      try {
        expectError(
          await request(service.baseUrl).get('/api/v1/auth/login'),
          503,
          'Service Unavailable: the identity provider is unreachable',
        );
        down.provider.setDown(false);
        const deadline = Date.now() + 10_000;
        let status = 503;
        while (status === 503 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          status = (await request(service.baseUrl).get('/api/v1/auth/login')).status;
        }
        expect(status).toBe(302);
      } finally {
        await down.provider.close();
      }
    });
  });

  describe('roles', () => {
    it('CRUD, audited; 409 on a taken id; 400 naming the fields', async () => {
      const role = { id: 'auditors', permissions: ['audit:read'], groups: ['auditors', 'auditors'] };
      expect((await app.post('/api/v1/roles', role).expect(201)).body).toEqual(
        successBody({ id: 'auditors', permissions: ['audit:read'], groups: ['auditors'] }),
      );
      expectError(await app.post('/api/v1/roles', role), 409, 'Role with this ID already exists');
      expectError(
        await app.post('/api/v1/roles', { id: 'x y', permissions: [], groups: [] }),
        400,
        /^groups must be an array of 1 to 100 group names; id must be 1 to 36 characters of letters, digits, '-' or '_'; permissions must be a non-empty array of: relayers:read, .*roles:manage, \*$/,
      );
      expect((await app.get('/api/v1/roles/auditors').expect(200)).body).toEqual(
        successBody({ id: 'auditors', permissions: ['audit:read'], groups: ['auditors'] }),
      );
      expect(
        (await app.patch('/api/v1/roles/auditors', { relayer_ids: ['team-a-*'] }).expect(200)).body,
      ).toEqual(
        successBody({
          id: 'auditors',
          permissions: ['audit:read'],
          relayer_ids: ['team-a-*'],
          groups: ['auditors'],
        }),
      );
      expectError(
        await app.patch('/api/v1/roles/auditors', { permissions: null }),
        400,
        /^permissions must be a non-empty array of: /,
      );
      expect((await app.delete('/api/v1/roles/auditors').expect(200)).body).toEqual(
        successBody('Role deleted successfully'),
      );
      expectError(await app.get('/api/v1/roles/auditors'), 404, 'Role not found');
      expect((await audit('role.create')).map((r) => r.resource_id)).toContain('auditors');
      expect((await audit('role.delete')).map((r) => r.resource_id)).toContain('auditors');
    });

    it('a key grants in a role only what it holds and sees: beyond it 403, and a scoped key sees only roles inside its scope', async () => {
      const manager = as(
        app,
        (await createKey(app, { permissions: ['roles:manage', 'relayers:read'], relayer_ids: ['team-a-*'] }))
          .key,
      );
      expectError(
        await manager.post('/api/v1/roles', { id: 'escalate', permissions: ['*'], groups: ['x'] }),
        403,
        'Forbidden',
      );
      expectError(
        await manager.post('/api/v1/roles', { id: 'wider', permissions: ['relayers:read'], groups: ['x'] }),
        403,
        'Forbidden',
      );
      await manager
        .post('/api/v1/roles', {
          id: 'team-a-ro',
          permissions: ['relayers:read'],
          relayer_ids: ['team-a-1'],
          groups: ['x'],
        })
        .expect(201);
      const listed = (await manager.get('/api/v1/roles').expect(200)).body.data as Array<{ id: string }>;
      expect(listed.map((r) => r.id)).toEqual(['team-a', 'team-a-ro']);
      expectError(await manager.get('/api/v1/roles/ops'), 404, 'Role not found');
      expectError(
        await manager.patch('/api/v1/roles/team-a-ro', { permissions: ['relayers:write'] }),
        403,
        'Forbidden',
      );
      expectError(await manager.delete('/api/v1/roles/ops'), 404, 'Role not found');
    });
  });
});
