import request from 'supertest';
import { createKey, relayerBody } from '../../factories';
import { as } from '../../support/as-key';
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
 * An attacker's read of the sign-in, roles and sessions (docs/access.md#signing-in-with-your-identity-provider),
 * made by someone who had not written them: each test an attack, refused. Those that first succeeded
 * (a scoped manager reaching other teams through a group another role names; a person's key outliving
 * their session; anonymous callbacks writing the audit trail; a huge claim copied whole) failed here
 * before their fixes.
 */

const ADA = { sub: 'ada-1', email: 'ada@example.com', name: 'Ada', groups: ['relayer-ops'] };
const VIC = { sub: 'vic-5', email: 'vic@example.com', name: 'Vic', groups: ['viewers'] };
const BOB = { sub: 'bob-2', email: 'bob@example.com', name: 'Bob', groups: ['team-a'] };

const OPS_ROLE = {
  id: 'ops',
  permissions: ['relayers:read', 'relayers:write', 'audit:read', 'roles:manage'],
  groups: ['relayer-ops'],
};
const TEAM_ROLE = {
  id: 'team-a',
  permissions: ['relayers:read'],
  relayer_ids: ['team-a-*'],
  groups: ['team-a'],
};
/** An unscoped read-only role, as docs/access.md's example of a dashboard group. */
const VIEWERS_ROLE = { id: 'viewers', permissions: ['relayers:read'], groups: ['viewers'] };

const summary = (res: request.Response) => ({ status: res.status, body: res.body as unknown });

describe('sign-in, roles and sessions under attack (docs/security.md)', () => {
  let setup: SignInSetup;
  let database: TestDatabase;
  let app: TestApp;
  const apiKey = newApiKey();

  beforeAll(async () => {
    setup = await startSignIn();
    database = await createTestDatabase();
    app = await startTestApp({ DATABASE_URL: database.url, API_KEY: apiKey, ...setup.env });
    await app.post('/api/v1/roles', OPS_ROLE).expect(201);
    await app.post('/api/v1/roles', TEAM_ROLE).expect(201);
    await app.post('/api/v1/roles', VIEWERS_ROLE).expect(201);
    for (const id of ['team-a-1', 'team-b-1'])
      await app.post('/api/v1/relayers', relayerBody('evm', { id })).expect(201);
  });
  afterAll(async () => {
    await app.close();
    // Cookie values, CSRF tokens, codes, states, the client secret and keys registered below: none logged.
    expect(secrets.foundIn(app.logText())).toEqual([]);
    await database.drop();
    await setup.provider.close();
  });

  const auditTotal = async (action: string): Promise<number> =>
    (
      (await app.get(`/api/v1/audit?action=${action}&per_page=1`).expect(200)).body as {
        pagination?: { total_items?: number; total?: number };
        meta?: { total?: number };
      }
    ).pagination?.total_items ?? 0;

  describe('privilege escalation through roles', () => {
    it('a team-a-scoped roles:manage key naming an unscoped role’s group grants write on team A only: team B stays out of reach', async () => {
      // The key holds relayers:write on team-a-* only; docs/access.md: "A caller grants in a role only
      // what it holds itself: its permissions, and a scope inside its own".
      const manager = as(
        app,
        (
          await createKey(app, {
            permissions: ['roles:manage', 'relayers:read', 'relayers:write'],
            relayer_ids: ['team-a-*'],
          })
        ).key,
      );
      const created = await manager.post('/api/v1/roles', {
        id: 'a-writers',
        permissions: ['relayers:write'],
        relayer_ids: ['team-a-*'],
        groups: ['viewers'], // the unscoped viewers role's group: the key cannot see that role, yet names its group
      });
      expect(created.status).toBe(201);
      const vic = await signIn(app, setup, VIC);
      const me = (await asPerson(app, vic).get('/api/v1/auth/session').expect(200)).body.data as object;
      const write = await asPerson(app, vic).patch('/api/v1/relayers/team-b-1', { name: 'written by vic' });
      await app.delete('/api/v1/roles/a-writers').expect(200);
      // The session shows all the person holds; each route is served with the roles that grant what it needs.
      expect({ me, write: summary(write) }).toEqual({
        me: expect.objectContaining({ roles: ['viewers', 'a-writers'], relayer_ids: null }),
        write: {
          status: 404,
          body: {
            success: false,
            data: null,
            message: 'Relayer with ID team-b-1 not found',
            error: 'Relayer with ID team-b-1 not found',
          },
        },
      });
    });

    it('roles:manage handed out the same way stays inside team A: other teams’ sessions unseen and unended, the admin’s role untouched', async () => {
      const manager = as(
        app,
        (await createKey(app, { permissions: ['roles:manage', 'relayers:read'], relayer_ids: ['team-a-*'] }))
          .key,
      );
      await manager
        .post('/api/v1/roles', {
          id: 'a-managers',
          permissions: ['roles:manage', 'relayers:read'],
          relayer_ids: ['team-a-*'],
          groups: ['viewers'],
        })
        .expect(201);
      // What the key itself sees: no session of ops, no unscoped role.
      const ada = await signIn(app, setup, ADA);
      const keySees = (
        (await manager.get('/api/v1/sessions?per_page=100').expect(200)).body.data as Array<{
          user: { email: string };
        }>
      ).map((s) => s.user.email);
      expect(keySees).not.toContain('ada@example.com');

      const vic = await signIn(app, setup, VIC);
      const vicSees = ((await asPerson(app, vic).get('/api/v1/sessions?per_page=100')).body.data ??
        []) as Array<{
        id: string;
        user: { email: string };
      }>;
      const adaSession = vicSees.find((s) => s.user.email === 'ada@example.com');
      const endAda = adaSession ? await asPerson(app, vic).delete(`/api/v1/sessions/${adaSession.id}`) : null;
      const adaAfter = await asPerson(app, ada).get('/api/v1/relayers');
      const deleteViewers = await asPerson(app, vic).delete('/api/v1/roles/viewers');
      if (deleteViewers.status === 200) await app.post('/api/v1/roles', VIEWERS_ROLE).expect(201);
      await app.delete('/api/v1/roles/a-managers').expect(200);
      expect({
        vicSeesAda: adaSession !== undefined,
        endAda: endAda && summary(endAda),
        adaAfter: adaAfter.status,
        deleteViewers: summary(deleteViewers),
      }).toEqual({
        vicSeesAda: false,
        endAda: null,
        adaAfter: 200,
        deleteViewers: {
          status: 404,
          body: { success: false, data: null, message: 'Role not found', error: 'Role not found' },
        },
      });
    });

    it('the same through PATCH: the key may add a group to a team-a role it sees, and its members still write on team A only', async () => {
      const manager = as(
        app,
        (
          await createKey(app, {
            permissions: ['roles:manage', 'relayers:read', 'relayers:write'],
            relayer_ids: ['team-a-*'],
          })
        ).key,
      );
      await app
        .post('/api/v1/roles', {
          id: 'a-rw',
          permissions: ['relayers:read', 'relayers:write'],
          relayer_ids: ['team-a-*'],
          groups: ['a-rw'],
        })
        .expect(201);
      const patched = await manager.patch('/api/v1/roles/a-rw', { groups: ['a-rw', 'viewers'] });
      const vic = await signIn(app, setup, VIC);
      const write = await asPerson(app, vic).patch('/api/v1/relayers/team-b-1', {
        name: 'written by vic again',
      });
      await app.delete('/api/v1/roles/a-rw').expect(200);
      expect({ patched: patched.status, write: write.status }).toEqual({ patched: 200, write: 404 });
    });

    it('a scoped key cannot unscope its visible role, grant *, nor touch a role it cannot see', async () => {
      const manager = as(
        app,
        (await createKey(app, { permissions: ['roles:manage', 'relayers:read'], relayer_ids: ['team-a-*'] }))
          .key,
      );
      const results = {
        unscope: (await manager.patch('/api/v1/roles/team-a', { relayer_ids: null })).status,
        star: (await manager.patch('/api/v1/roles/team-a', { permissions: ['*'] })).status,
        widen: (await manager.patch('/api/v1/roles/team-a', { relayer_ids: ['team-*'] })).status,
        patchOps: (await manager.patch('/api/v1/roles/ops', { groups: ['team-a'] })).status,
        patchViewers: (await manager.patch('/api/v1/roles/viewers', { groups: ['x'] })).status,
        deleteOps: (await manager.delete('/api/v1/roles/ops')).status,
        getOps: (await manager.get('/api/v1/roles/ops')).status,
        writeWithoutIt: (
          await manager.post('/api/v1/roles', {
            id: 'w',
            permissions: ['relayers:write'],
            relayer_ids: ['team-a-*'],
            groups: ['g'],
          })
        ).status,
      };
      expect(results).toEqual({
        unscope: 403,
        star: 403,
        widen: 403,
        patchOps: 404,
        patchViewers: 404,
        deleteOps: 404,
        getOps: 404,
        writeWithoutIt: 403,
      });
    });
  });

  describe('a person’s API keys', () => {
    it('a key a person makes expires with the session that made it, as a key’s child with its creator', async () => {
      await app
        .post('/api/v1/roles', {
          id: 'keymasters',
          permissions: ['api_keys:manage', 'relayers:read'],
          groups: ['keymasters'],
        })
        .expect(201);
      const kim = await signIn(app, setup, {
        sub: 'kim-6',
        email: 'kim@example.com',
        groups: ['keymasters'],
      });
      const session = (await asPerson(app, kim).get('/api/v1/auth/session').expect(200)).body.data as {
        expires_at: string;
      };
      const minted = await asPerson(app, kim).post('/api/v1/api-keys', {
        name: 'kim-forever',
        permissions: ['relayers:read'],
      });
      expect(minted.status).toBe(201);
      const key = secrets.add((minted.body.data as { key: string }).key);
      // The administrator takes Kim's access away: the role goes, and with it the session (401).
      await app.delete('/api/v1/roles/keymasters').expect(200);
      expect((await asPerson(app, kim).get('/api/v1/relayers')).status).toBe(401);
      const keyAfter = await as(app, key).get('/api/v1/relayers');
      const data = minted.body.data as { expires_at: string | null; created_by_key_id: string | null };
      // As for a key's child (docs/access.md#how-keys-are-checked): it expires no later than its creator,
      // the session; until then it is a key of its own (the administrator's to revoke).
      expect({
        expires_at: data.expires_at,
        created_by_key_id: data.created_by_key_id,
        keyAfterRoleDeleted: keyAfter.status,
      }).toEqual({
        expires_at: session.expires_at,
        created_by_key_id: null,
        keyAfterRoleDeleted: 200,
      });
    });
  });

  describe('the public routes', () => {
    it('a callback no sign-in of this browser started writes nothing to the audit trail, and repeats none of its text', async () => {
      const before = await auditTotal('session.refuse');
      const forged =
        'access_denied; session.create ada@example.com signed in from 10.0.0.1 (approved by admin)';
      const statuses = new Set<number>();
      for (let i = 0; i < 60; i += 1) {
        statuses.add(
          (await request(app.baseUrl).get(`/api/v1/auth/callback?error=${encodeURIComponent(forged)}`))
            .status,
        );
      }
      const after = await auditTotal('session.refuse');
      const answer = await request(app.baseUrl).get(
        `/api/v1/auth/callback?error=${encodeURIComponent(forged)}`,
      );
      expect({ statuses: [...statuses], written: after - before, answer: answer.body as unknown }).toEqual({
        statuses: [400],
        written: 0,
        answer: {
          success: false,
          data: null,
          message: 'Sign-in failed: the provider answered an error',
          error: 'Sign-in failed: the provider answered an error',
        },
      });
    });

    it('no open redirect: login ignores return/redirect parameters, the callback always lands on PUBLIC_URL/console/', async () => {
      setup.provider.setAccount(ADA);
      const login = await request(app.baseUrl)
        .get(
          '/api/v1/auth/login?redirect_uri=https://evil.example/cb&return_to=https://evil.example&next=//evil.example',
        )
        .expect(302);
      const location = new URL(String(login.headers.location));
      expect(location.origin).toBe(new URL(setup.provider.issuer).origin);
      expect(location.searchParams.get('redirect_uri')).toBe(`${setup.publicUrl}/api/v1/auth/callback`);
      const state = setCookie(login.headers['set-cookie'], SIGN_IN_COOKIE)!.value;
      const callback = new URL(await setup.provider.authorize(location.href));
      secrets.add(callback.searchParams.get('code')!);
      secrets.add(state);
      callback.searchParams.set('next', 'https://evil.example');
      callback.searchParams.set('redirect_uri', 'https://evil.example');
      const res = await signInSteps(app).callback(callback.href, state);
      expect({ status: res.status, location: res.headers.location }).toEqual({
        status: 302,
        location: `${setup.publicUrl}/console/`,
      });
      secrets.add(setCookie(res.headers['set-cookie'], SESSION_COOKIE)!.value);
    });

    it('login CSRF: the attacker’s callback URL in a victim’s browser (with or without a sign-in of its own) starts nothing', async () => {
      const steps = signInSteps(app);
      setup.provider.setAccount({ sub: 'mallory-9', email: 'mallory@example.com', groups: ['relayer-ops'] });
      const attacker = await steps.login();
      const attackerCallback = await setup.provider.authorize(attacker.location);
      secrets.add(new URL(attackerCallback).searchParams.get('code')!);
      setup.provider.setAccount(ADA);
      const victim = await steps.login();
      const inVictimWithOwnSignIn = await steps.callback(attackerCallback, victim.state);
      const inVictimWithout = await steps.callback(attackerCallback, null);
      expect([inVictimWithOwnSignIn.status, inVictimWithout.status]).toEqual([400, 400]);
      expect(setCookie(inVictimWithOwnSignIn.headers['set-cookie'], SESSION_COOKIE)).toBeNull();
      expect(setCookie(inVictimWithout.headers['set-cookie'], SESSION_COOKIE)).toBeNull();
    });

    it('session fixation: a session cookie the attacker planted is neither kept nor honoured', async () => {
      setup.provider.setAccount(ADA);
      const planted = 'A'.repeat(43);
      const steps = signInSteps(app);
      const { location, state } = await steps.login();
      const callback = new URL(await setup.provider.authorize(location));
      const res = await request(app.baseUrl)
        .get(`${callback.pathname}${callback.search}`)
        .set('Cookie', `${SESSION_COOKIE}=${planted}; ${SIGN_IN_COOKIE}=${state}`);
      const issued = setCookie(res.headers['set-cookie'], SESSION_COOKIE);
      if (issued) secrets.add(issued.value);
      expect(issued?.value).not.toBe(planted);
      expect(
        (await request(app.baseUrl).get('/api/v1/auth/session').set('Cookie', `${SESSION_COOKIE}=${planted}`))
          .status,
      ).toBe(401);
    });

    it('the provider down at the code exchange answers 503, no session', async () => {
      setup.provider.setAccount(ADA);
      const steps = signInSteps(app);
      const { location, state } = await steps.login();
      const callback = await setup.provider.authorize(location);
      secrets.add(new URL(callback).searchParams.get('code')!);
      setup.provider.setDown(true);
      try {
        const res = await steps.callback(callback, state);
        expect(summary(res)).toEqual({
          status: 503,
          body: expect.objectContaining({
            message: 'Service Unavailable: the identity provider is unreachable',
          }),
        });
        expect(setCookie(res.headers['set-cookie'], SESSION_COOKIE)).toBeNull();
      } finally {
        setup.provider.setDown(false);
      }
    });
  });

  describe('provider claims', () => {
    it('CRLF in the email, non-string groups, a string groups claim: no header injected, groups filtered exactly', async () => {
      await app
        .post('/api/v1/roles', { id: 'crlf-role', permissions: ['relayers:read'], groups: ['crlf-group'] })
        .expect(201);
      const crlf = {
        sub: 'crlf-7',
        email: 'c@example.com\r\nSet-Cookie: injected=1\r\nX-Evil: 1',
        groups: ['crlf-group', 42, { $ne: null }, ['relayer-ops'], 'relayer-ops '] as unknown as string[],
      };
      const person = await signIn(app, setup, crlf);
      const me = await asPerson(app, person).get('/api/v1/auth/session').expect(200);
      expect(me.headers['x-evil']).toBeUndefined();
      expect(String(me.headers['set-cookie'] ?? '')).not.toContain('injected');
      expect((me.body.data as { roles: string[] }).roles).toEqual(['crlf-role']);
      // A single string claim is one group, never matched as a substring ("relayer-ops-x" is not "ops").
      const stringy = {
        sub: 'str-8',
        email: 's@example.com',
        groups: 'xrelayer-opsx' as unknown as string[],
      };
      setup.provider.setAccount(stringy);
      const steps = signInSteps(app);
      const { location, state } = await steps.login();
      const res = await steps.callback(await setup.provider.authorize(location), state);
      expect(res.status).toBe(403);
    });

    it('a huge email claim (20,000 characters) is cut to 255 in the audit record and the 403', async () => {
      const huge = { sub: 'huge-9', email: `${'h'.repeat(20_000)}@example.com`, groups: ['nobody'] };
      setup.provider.setAccount(huge);
      const steps = signInSteps(app);
      const { location, state } = await steps.login();
      const res = await steps.callback(await setup.provider.authorize(location), state);
      const [record] = (await app.get('/api/v1/audit?action=session.refuse&per_page=1').expect(200)).body
        .data as Array<{ actor: { name: string } }>;
      // Expected: cut as the session's name is (255), in the audit and the answer alike.
      expect({
        status: res.status,
        bodyChars: res.text.length,
        auditNameChars: record.actor.name.length,
      }).toEqual({
        status: 403,
        bodyChars: expect.any(Number),
        auditNameChars: expect.any(Number),
      });
      expect({
        bodyUnder1000: res.text.length < 1000,
        auditNameUnder256: record.actor.name.length <= 255,
      }).toEqual({
        bodyUnder1000: true,
        auditNameUnder256: true,
      });
    });
  });

  describe('names in the audit', () => {
    it('with no email claim the audit name is preferred_username, as documented: only the id tells two people apart', async () => {
      const mallory = await signIn(app, setup, {
        sub: 'mallory-10',
        preferred_username: 'ada@example.com',
        groups: ['relayer-ops'],
      });
      await asPerson(app, mallory).patch('/api/v1/relayers/team-a-1', { name: 'not ada' }).expect(200);
      const [record] = (
        await app.get('/api/v1/audit?resource_id=team-a-1&action=relayer.update&per_page=1').expect(200)
      ).body.data as Array<{ actor: { id: string; name: string } }>;
      // The provider vouches for sub, not for a username: the id is who acted.
      expect(record.actor).toEqual({
        type: 'user',
        id: `${setup.provider.issuer}#mallory-10`,
        name: 'ada@example.com',
      });
    });
  });

  describe('CSRF', () => {
    it('method override headers, HEAD, OPTIONS, a doubled header, another person’s token, an empty Authorization', async () => {
      const ada = await signIn(app, setup, ADA);
      const bob = await signIn(app, setup, BOB);
      const cookie = `${SESSION_COOKIE}=${ada.cookie}`;
      const patch = () => request(app.baseUrl).patch('/api/v1/relayers/team-a-1').set('Cookie', cookie);
      const results = {
        override: (
          await request(app.baseUrl)
            .post('/api/v1/relayers')
            .set('Cookie', cookie)
            .set('X-HTTP-Method-Override', 'GET')
            .set('X-HTTP-Method', 'GET')
            .set('X-Method-Override', 'GET')
            .send(relayerBody('evm', { id: 'team-a-csrf' }))
        ).status,
        overrideQuery: (
          await request(app.baseUrl)
            .post('/api/v1/relayers?_method=GET')
            .set('Cookie', cookie)
            .send(relayerBody('evm', { id: 'team-a-csrf2' }))
        ).status,
        doubled: (await patch().set('X-CSRF-Token', `${ada.csrf}, ${ada.csrf}`).send({ name: 'x' })).status,
        bobsToken: (await patch().set('X-CSRF-Token', bob.csrf).send({ name: 'x' })).status,
        emptyAuthorization: (
          await patch().set('Authorization', '').set('X-CSRF-Token', ada.csrf).send({ name: 'x' })
        ).status,
        logoutWithoutToken: (await request(app.baseUrl).post('/api/v1/auth/logout').set('Cookie', cookie))
          .status,
        options: (await request(app.baseUrl).options('/api/v1/relayers/team-a-1').set('Cookie', cookie))
          .status,
      };
      const head = await request(app.baseUrl).head('/api/v1/relayers/team-a-1').set('Cookie', cookie);
      expect(results).toEqual({
        override: 403,
        overrideQuery: 403,
        doubled: 403,
        bobsToken: 403,
        emptyAuthorization: 401,
        logoutWithoutToken: 403,
        options: 404,
      });
      expect(head.status).toBe(200);
      expect((await asPerson(app, ada).get('/api/v1/relayers/team-a-1').expect(200)).body.data.name).not.toBe(
        'x',
      );
    });
  });

  describe('sessions and audit for lesser callers', () => {
    it('a team-a-scoped roles:manage key lists only team-a people’s sessions and cannot end ops’', async () => {
      const ada = await signIn(app, setup, ADA);
      await signIn(app, setup, BOB);
      const manager = as(
        app,
        (await createKey(app, { permissions: ['roles:manage', 'relayers:read'], relayer_ids: ['team-a-*'] }))
          .key,
      );
      const seen = (await manager.get('/api/v1/sessions?per_page=100').expect(200)).body.data as Array<{
        id: string;
        user: { email: string };
      }>;
      expect([...new Set(seen.map((s) => s.user.email))]).toEqual(['bob@example.com']);
      const all = (await app.get('/api/v1/sessions?per_page=100').expect(200)).body.data as Array<{
        id: string;
        user: { email: string };
      }>;
      const adas = all.filter((s) => s.user.email === 'ada@example.com');
      for (const s of adas) expect((await manager.delete(`/api/v1/sessions/${s.id}`)).status).toBe(404);
      await asPerson(app, ada).get('/api/v1/relayers').expect(200);
      // A scoped audit reader sees no session records (they name people).
      const auditor = as(
        app,
        (await createKey(app, { permissions: ['audit:read'], relayer_ids: ['team-a-*'] })).key,
      );
      const records = (await auditor.get('/api/v1/audit?resource_type=session&per_page=100').expect(200)).body
        .data as unknown[];
      expect(records).toEqual([]);
    });

    it('a person’s Idempotency-Key never replays a key’s answer, nor another person’s', async () => {
      const ada = await signIn(app, setup, ADA);
      const adaKeyed = await asPerson(app, ada)
        .post('/api/v1/roles', { id: 'idem-ada', permissions: ['relayers:read'], groups: ['idem'] })
        .set('Idempotency-Key', 'shared-key-1');
      const admin = await app
        .post('/api/v1/roles', { id: 'idem-admin', permissions: ['relayers:read'], groups: ['idem'] })
        .set('Idempotency-Key', 'shared-key-1');
      expect([adaKeyed.status, admin.status, admin.headers['idempotent-replayed']]).toEqual([
        201,
        201,
        undefined,
      ]);
    });
  });
});
