import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Response } from 'supertest';
import { expectError, successBody } from '../../support/envelope';
import { JsonRpcServer } from '../../support/json-rpc-server';
import { VaultFake } from '../../support/key-service-fakes';
import { secrets } from '../../support/secrets';
import { defaultCatalogue } from '../../support/test-app';
import { useWebhookApp } from '../../support/webhook-app';
import { createKey, fileSigner, relayerBody, signerKey } from '../../factories';
import { as } from '../../support/as-key';
import { writeConfigFile } from '../../support/test-catalogue';
import { asPerson, signIn, startSignIn, type SignInSetup } from '../../support/sign-in';

/**
 * docs/reference/keys-and-audit.md#3-relayer-scope: a key's `relayer_ids` cover a
 * team's relayers, signers (of the file and of the API) and notification targets alike. Outside the
 * scope a signer or target answers exactly as a missing one on every route, a relayer body may not
 * name one, a 409 names only what the key may see, and `/metrics` holds only its relayers' series.
 */

/** Sepolia's chain id, as the test catalogue has it. */
const SEPOLIA = '0xaa36a7';
/** The team's key: its prefix, and the test catalogue's pool of signers, shared by every team. */
const SCOPE = ['team-a-*', 'pool-*'];
const covers = (id: string) => id.startsWith('team-a-') || id.startsWith('pool-');
/** Never created: the answer every out-of-scope id must match. */
const MISSING_SIGNER = 'team-a-nosigner';
const MISSING_HOOK = 'team-a-nohook';
/**
 * Outside it: another team's, of the file and of the API; an id the prefix is not a prefix of; the
 * prefix in another case, another id on every database (docs/reference/running.md#37-ids-compare-exactly).
 */
const OUTSIDE_SIGNERS = ['team-b-file', 'team-b-api', 'team-ab-api', 'TEAM-A-API'];
const OUTSIDE_HOOKS = ['team-b-hook', 'team-ab-hook', 'TEAM-A-HOOK'];

/** Status, type and body with the id asked for replaced: what must be the same for two ids. */
const shape = (res: Response, id: string) => ({
  status: res.status,
  type: res.type,
  body: JSON.parse(res.text.split(id).join('<id>')) as unknown,
});

/** Where a webhook to `url` is recorded by the receiver: its path and query. */
const at = (url: string): string => {
  const { pathname, search } = new URL(url);
  return `${pathname}${search}`;
};

/** The default test catalogue, with a signer of each team in the file. */
function teamCatalogue(): string {
  const file = JSON.parse(fs.readFileSync(defaultCatalogue().file, 'utf8')) as { signers: object[] };
  file.signers.push(fileSigner('team-a-file'), fileSigner('team-b-file'));
  return writeConfigFile(file);
}

/** The team's permissions: every one of the routes of relayers, signers, targets, metrics and the export. */
const TEAM_PERMISSIONS = [
  'relayers:read',
  'relayers:write',
  'notifications:read',
  'notifications:write',
  'signers:read',
  'signers:write',
  'metrics:read',
  'config:read',
];

// The same rules for a person whose role holds the team's scope as for the team's key
// (docs/access.md#roles-from-the-providers-groups-to-permissions): one code path, proven by the same tests.
describe.each(['an API key', 'a person signed in'])(
  'team scope, held by %s: relayer_ids cover relayers, signers and targets (docs/reference/keys-and-audit.md#3-relayer-scope)',
  (holder) => {
    const person = holder === 'a person signed in';
    let signInSetup: SignInSetup | undefined;
    beforeAll(async () => {
      if (person) signInSetup = await startSignIn();
    });
    afterAll(async () => {
      await signInSetup?.provider.close();
    });
    const rpc = new JsonRpcServer({
      eth_chainId: () => ({ result: SEPOLIA }),
      eth_getTransactionCount: () => ({ result: '0x7' }),
      eth_getBalance: () => ({ result: '0x2a' }),
    });
    /** A key service: a signer made through the API may be held by one, called before it is stored. */
    const vault = new VaultFake();
    beforeAll(async () => {
      await rpc.start();
      await vault.start();
      vault.kv.set('secret/relayer', signerKey());
    });
    afterAll(async () => {
      await rpc.close();
      await vault.close();
    });
    const { receiver, app, settled } = useWebhookApp(() => ({
      CONFIG_FILE: teamCatalogue(),
      WEBHOOK_MAX_ATTEMPTS: '1',
      ...signInSetup?.env,
    }));
    /** Every permission of the routes of relayers, signers, targets, metrics and the export. */
    let team: ReturnType<typeof as> | ReturnType<typeof asPerson>;
    const hookUrl = { a: '', b: '' };

    const adminRelayer = async (id: string, fields: object = {}) =>
      app()
        .post('/api/v1/relayers', relayerBody('evm', { id, ...fields }))
        .expect(201);

    beforeAll(async () => {
      hookUrl.a = receiver.url(`/a?token=${secrets.add(randomBytes(8).toString('hex'))}`);
      hookUrl.b = receiver.url(`/b/${secrets.add(randomBytes(8).toString('hex'))}`);
      await app().post('/api/v1/notifications', { id: 'team-a-hook', url: hookUrl.a }).expect(201);
      await app().post('/api/v1/notifications', { id: 'team-b-hook', url: hookUrl.b }).expect(201);
      for (const id of OUTSIDE_HOOKS.filter((id) => id !== 'team-b-hook')) {
        await app().post('/api/v1/notifications', { id, url: 'https://hooks.example.com/' }).expect(201);
      }
      for (const id of ['team-a-api', ...OUTSIDE_SIGNERS.filter((id) => id !== 'team-b-file')]) {
        await app()
          .post('/api/v1/signers', { id, type: 'plain', config: { key: signerKey() } })
          .expect(201);
      }
      await adminRelayer('team-a-1', { notification_id: 'team-a-hook' });
      await adminRelayer('team-b-1', { signer_id: 'team-b-api', notification_id: 'team-b-hook' });
      if (signInSetup) {
        await app()
          .post('/api/v1/roles', {
            id: 'team-a',
            permissions: TEAM_PERMISSIONS,
            relayer_ids: SCOPE,
            groups: ['team-a'],
          })
          .expect(201);
        const member = await signIn(app(), signInSetup, {
          sub: 'ada',
          email: 'ada@team-a.example',
          groups: ['team-a'],
        });
        team = asPerson(app(), member);
      } else {
        team = as(
          app(),
          (await createKey(app(), { name: 'team-a', relayer_ids: SCOPE, permissions: TEAM_PERMISSIONS })).key,
        );
      }
    });

    /** Every item of a list, a page of `perPage` at a time, with the totals each page gave. */
    const allPages = async (client: ReturnType<typeof as>, list: string, perPage: number) => {
      const ids: string[] = [];
      const totals = new Set<number>();
      for (let page = 1; ; page++) {
        const res = await client.get(`${list}?per_page=${perPage}&page=${page}`).expect(200);
        const data = res.body.data as Array<{ id: string }>;
        totals.add((res.body.pagination as { total_items: number }).total_items);
        if (data.length === 0) return { ids, totals: [...totals] };
        expect(data.length).toBeLessThanOrEqual(perPage);
        ids.push(...data.map((item) => item.id));
      }
    };

    describe('signers, of the file and of the API', () => {
      it('GET /signers lists only those in the scope, in the order of every list, counted and paged so', async () => {
        const admin = await allPages(as(app(), app().apiKey), '/api/v1/signers', 100);
        expect(admin.ids).toEqual(expect.arrayContaining(['team-a-file', 'team-a-api', ...OUTSIDE_SIGNERS]));
        const expected = admin.ids.filter(covers);
        expect(expected).toEqual(expect.arrayContaining(['team-a-file', 'team-a-api']));
        // Pages that end inside the file's signers, across its end, and past it.
        for (const perPage of [7, 100]) {
          expect(await allPages(team, '/api/v1/signers', perPage)).toEqual({
            ids: expected,
            totals: [expected.length],
          });
        }
      });

      it('GET and DELETE /signers/{id} outside the scope: exactly as a missing signer, and it stays', async () => {
        const missing = {
          get: await team.get(`/api/v1/signers/${MISSING_SIGNER}`),
          delete: await team.delete(`/api/v1/signers/${MISSING_SIGNER}`),
        };
        expectError(missing.get, 404, `Signer with ID ${MISSING_SIGNER} not found`);
        expectError(missing.delete, 404, `Signer with ID ${MISSING_SIGNER} not found`);
        for (const id of OUTSIDE_SIGNERS) {
          expect(shape(await team.get(`/api/v1/signers/${id}`), id)).toEqual(
            shape(missing.get, MISSING_SIGNER),
          );
          // Not the file's 409 either: that would say it exists.
          expect(shape(await team.delete(`/api/v1/signers/${id}`), id)).toEqual(
            shape(missing.delete, MISSING_SIGNER),
          );
          await app().get(`/api/v1/signers/${id}`).expect(200);
        }
        // In the scope, as for any key.
        expect((await team.get('/api/v1/signers/team-a-api').expect(200)).body).toEqual(
          (await app().get('/api/v1/signers/team-a-api').expect(200)).body,
        );
        expectError(
          await team.delete('/api/v1/signers/team-a-file'),
          409,
          'Signer team-a-file is defined in the configuration file',
        );
      });

      it('POST /signers: an id outside the scope is 403 and nothing is created; without an id 400 naming id', async () => {
        for (const id of ['team-b-new', 'TEAM-A-NEW', 'team-b-api']) {
          expectError(
            await team.post('/api/v1/signers', { id, type: 'plain', config: { key: signerKey() } }),
            403,
            'Forbidden',
          );
        }
        expectError(
          await app().get('/api/v1/signers/team-b-new'),
          404,
          'Signer with ID team-b-new not found',
        );
        expectError(
          await team.post('/api/v1/signers', { type: 'plain', config: { key: signerKey() } }),
          400,
          'id is required: this API key may create only signers of its relayer_ids, so it must name one',
        );
        const created = await team.post('/api/v1/signers', {
          id: 'team-a-new',
          type: 'plain',
          config: { key: signerKey() },
        });
        expect({ status: created.status, id: (created.body.data as { id: string }).id }).toEqual({
          status: 201,
          id: 'team-a-new',
        });
      });

      it('POST /signers of a key service outside the scope: 403 before the key service is called', async () => {
        const config = () => ({
          address: vault.url(),
          role_id: vault.roleId,
          secret_id: vault.secretId,
          key_name: 'relayer',
        });
        vault.calls = [];
        expectError(
          await team.post('/api/v1/signers', { id: 'team-b-vault', type: 'vault', config: config() }),
          403,
          'Forbidden',
        );
        expect(vault.calls).toEqual([]);
        // The control: inside the scope, the key service is asked for the key's addresses.
        await team
          .post('/api/v1/signers', { id: 'team-a-vault', type: 'vault', config: config() })
          .expect(201);
        expect(vault.calls.length).toBeGreaterThan(0);
      });
    });

    describe('notification targets', () => {
      it('GET /notifications lists only those in the scope, counted and paged so', async () => {
        const admin = await allPages(as(app(), app().apiKey), '/api/v1/notifications', 100);
        expect(admin.ids).toEqual(expect.arrayContaining(OUTSIDE_HOOKS));
        const expected = admin.ids.filter(covers);
        expect(expected).toContain('team-a-hook');
        for (const perPage of [1, 100]) {
          expect(await allPages(team, '/api/v1/notifications', perPage)).toEqual({
            ids: expected,
            totals: [expected.length],
          });
        }
      });

      it('GET, PATCH and DELETE /notifications/{id} outside the scope: 404 as a missing one, nothing changes', async () => {
        const missing = {
          get: await team.get(`/api/v1/notifications/${MISSING_HOOK}`),
          patch: await team.patch(`/api/v1/notifications/${MISSING_HOOK}`, {
            url: 'https://evil.example.com/',
          }),
          delete: await team.delete(`/api/v1/notifications/${MISSING_HOOK}`),
        };
        for (const res of Object.values(missing)) expectError(res, 404, 'Notification not found');
        for (const id of OUTSIDE_HOOKS) {
          const before = await app().get(`/api/v1/notifications/${id}`).expect(200);
          expect(shape(await team.get(`/api/v1/notifications/${id}`), id)).toEqual(
            shape(missing.get, MISSING_HOOK),
          );
          expect(
            shape(await team.patch(`/api/v1/notifications/${id}`, { url: 'https://evil.example.com/' }), id),
          ).toEqual(shape(missing.patch, MISSING_HOOK));
          expect(shape(await team.delete(`/api/v1/notifications/${id}`), id)).toEqual(
            shape(missing.delete, MISSING_HOOK),
          );
          const after = await app().get(`/api/v1/notifications/${id}`).expect(200);
          expect({ body: after.body as unknown, etag: after.headers.etag }).toEqual({
            body: before.body,
            etag: before.headers.etag,
          });
        }
      });

      it('POST /notifications: an id outside the scope is 403 and nothing is created; without an id 400 naming id', async () => {
        for (const id of ['team-b-new', 'TEAM-A-NEW', 'team-b-hook']) {
          expectError(
            await team.post('/api/v1/notifications', { id, url: 'https://hooks.example.com/x' }),
            403,
            'Forbidden',
          );
        }
        expectError(await app().get('/api/v1/notifications/team-b-new'), 404, 'Notification not found');
        expectError(
          await team.post('/api/v1/notifications', { url: 'https://hooks.example.com/x' }),
          400,
          'id is required: this API key may create only notifications of its relayer_ids, so it must name one',
        );
        await team
          .post('/api/v1/notifications', { id: 'team-a-new', url: 'https://hooks.example.com/x' })
          .expect(201);
      });

      it('every route under /notifications/{id}: outside the scope exactly as a missing target, and nothing happens', async () => {
        const [delivery] = await settled('team-b-hook');
        const routes: Array<[string, (id: string) => Promise<Response>]> = [
          ['GET state', (id) => team.get(`/api/v1/notifications/${id}/state`)],
          ['POST pause', (id) => team.post(`/api/v1/notifications/${id}/pause`)],
          ['POST resume', (id) => team.post(`/api/v1/notifications/${id}/resume`)],
          [
            'POST signing-key',
            (id) =>
              team.post(`/api/v1/notifications/${id}/signing-key`, {
                signing_key: 'k'.repeat(40),
                overlap_seconds: 0,
              }),
          ],
          ['GET signing-scheme', (id) => team.get(`/api/v1/notifications/${id}/signing-scheme`)],
          [
            'PUT signing-scheme',
            (id) => team.put(`/api/v1/notifications/${id}/signing-scheme`, { scheme: 'standard' }),
          ],
          ['POST test', (id) => team.post(`/api/v1/notifications/${id}/test`)],
          ['GET deliveries', (id) => team.get(`/api/v1/notifications/${id}/deliveries`)],
          ['POST retry', (id) => team.post(`/api/v1/notifications/${id}/deliveries/${delivery.id}/retry`)],
          [
            'POST replay',
            (id) => team.post(`/api/v1/notifications/${id}/deliveries/replay`, { status: 'delivered' }),
          ],
          ['GET stats', (id) => team.get(`/api/v1/notifications/${id}/stats`)],
          ['GET subscription', (id) => team.get(`/api/v1/notifications/${id}/subscription`)],
          [
            'PUT subscription',
            (id) => team.put(`/api/v1/notifications/${id}/subscription`, { relayer_ids: null }),
          ],
        ];
        const state = async () => ({
          target: (await app().get('/api/v1/notifications/team-b-hook').expect(200)).body as unknown,
          state: (await app().get('/api/v1/notifications/team-b-hook/state').expect(200)).body as unknown,
          scheme: (await app().get('/api/v1/notifications/team-b-hook/signing-scheme').expect(200))
            .body as unknown,
          subscription: (await app().get('/api/v1/notifications/team-b-hook/subscription').expect(200))
            .body as unknown,
          deliveries: (await app().get('/api/v1/notifications/team-b-hook/deliveries').expect(200))
            .body as unknown,
          received: receiver.to(at(hookUrl.b)).length,
        });
        const before = await state();
        for (const [route, call] of routes) {
          const missing = await call(MISSING_HOOK);
          expect({ route, status: missing.status }).toEqual({ route, status: 404 });
          for (const id of OUTSIDE_HOOKS) {
            expect({ route, id, ...shape(await call(id), id) }).toEqual({
              route,
              id,
              ...shape(missing, MISSING_HOOK),
            });
          }
        }
        expect(await state()).toEqual(before);
      });
    });

    describe('what a relayer body names', () => {
      it('POST /relayers naming a signer outside the scope (file or API): the 400 of a missing one, dry run too', async () => {
        for (const query of ['', '?dry_run=true']) {
          const missing = await team.post(
            `/api/v1/relayers${query}`,
            relayerBody('evm', { id: 'team-a-r1', signer_id: MISSING_SIGNER }),
          );
          expectError(missing, 400, `Signer with ID ${MISSING_SIGNER} not found`);
          for (const id of OUTSIDE_SIGNERS) {
            const res = await team.post(
              `/api/v1/relayers${query}`,
              relayerBody('evm', { id: 'team-a-r1', signer_id: id }),
            );
            expect(shape(res, id)).toEqual(shape(missing, MISSING_SIGNER));
          }
        }
        expectError(
          await app().get('/api/v1/relayers/team-a-r1'),
          404,
          'Relayer with ID team-a-r1 not found',
        );
      });

      it('POST and PATCH /relayers naming a target outside the scope: the 400 of a missing one, dry run too; nothing changes', async () => {
        const before = await app().get('/api/v1/relayers/team-a-1').expect(200);
        for (const query of ['', '?dry_run=true']) {
          const missing = {
            post: await team.post(
              `/api/v1/relayers${query}`,
              relayerBody('evm', { id: 'team-a-r2', notification_id: MISSING_HOOK }),
            ),
            patch: await team.patch(`/api/v1/relayers/team-a-1${query}`, { notification_id: MISSING_HOOK }),
          };
          expectError(missing.post, 400, `Notification with ID ${MISSING_HOOK} not found`);
          expectError(missing.patch, 400, `Notification with ID ${MISSING_HOOK} not found`);
          for (const id of OUTSIDE_HOOKS) {
            const post = await team.post(
              `/api/v1/relayers${query}`,
              relayerBody('evm', { id: 'team-a-r2', notification_id: id }),
            );
            expect(shape(post, id)).toEqual(shape(missing.post, MISSING_HOOK));
            const patch = await team.patch(`/api/v1/relayers/team-a-1${query}`, { notification_id: id });
            expect(shape(patch, id)).toEqual(shape(missing.patch, MISSING_HOOK));
          }
        }
        const after = await app().get('/api/v1/relayers/team-a-1').expect(200);
        expect({ body: after.body as unknown, etag: after.headers.etag }).toEqual({
          body: before.body,
          etag: before.headers.etag,
        });
        expectError(
          await app().get('/api/v1/relayers/team-a-r2'),
          404,
          'Relayer with ID team-a-r2 not found',
        );
      });

      it("the finding: a relayers:write team key can neither route its relayer's events into another team's target nor put a relayer on another team's signer", async () => {
        const writer = as(
          app(),
          (
            await createKey(app(), {
              relayer_ids: ['team-a-*', 'pool-*'],
              permissions: ['relayers:read', 'relayers:write'],
            })
          ).key,
        );
        const received = receiver.to(at(hookUrl.b)).length;
        expectError(
          await writer.patch('/api/v1/relayers/team-a-1', { notification_id: 'team-b-hook' }),
          400,
          'Notification with ID team-b-hook not found',
        );
        expectError(
          await writer.post(
            '/api/v1/relayers',
            relayerBody('evm', { id: 'team-a-steal', signer_id: 'team-b-file' }),
          ),
          400,
          'Signer with ID team-b-file not found',
        );
        // Its changes keep going to its own target only.
        await writer.patch('/api/v1/relayers/team-a-1', { name: 'still team a' }).expect(200);
        await receiver.waitFor(at(hookUrl.a), 2);
        expect(receiver.to(at(hookUrl.b)).length).toBe(received);
      });

      it('what a relayer already references and the body does not name is kept', async () => {
        // Given by the administrator: a relayer of team a on team b's signer and target.
        await adminRelayer('team-a-lent', {
          network: 'mainnet',
          signer_id: 'team-b-file',
          notification_id: 'team-b-hook',
        });
        const res = await team.patch('/api/v1/relayers/team-a-lent', { name: 'renamed', paused: true });
        expect({ status: res.status, body: res.body as unknown }).toEqual({
          status: 200,
          body: successBody(
            expect.objectContaining({
              id: 'team-a-lent',
              name: 'renamed',
              paused: true,
              signer_id: 'team-b-file',
              notification_id: 'team-b-hook',
            }),
          ),
        });
      });
    });

    describe('409 for a signer or target still in use', () => {
      beforeAll(async () => {
        for (const id of ['team-a-shared', 'team-a-lent-signer']) {
          await app()
            .post('/api/v1/signers', { id, type: 'plain', config: { key: signerKey() } })
            .expect(201);
        }
        await adminRelayer('team-a-s1', { signer_id: 'team-a-shared' });
        await adminRelayer('team-b-s1', { signer_id: 'team-a-shared', network: 'mainnet' });
        await adminRelayer('team-b-s2', { signer_id: 'team-a-lent-signer' });
        await adminRelayer('team-b-h1', { notification_id: 'team-a-hook' });
        await app()
          .post('/api/v1/notifications', { id: 'team-a-lent-hook', url: 'https://hooks.example.com/l' })
          .expect(201);
        await adminRelayer('team-b-h2', { notification_id: 'team-a-lent-hook' });
      });

      it('DELETE /signers/{id}: names the relayers in the scope and counts the others; the administrator is answered as before', async () => {
        expectError(
          await team.delete('/api/v1/signers/team-a-shared'),
          409,
          "Signer team-a-shared is used by relayers: team-a-s1 and 1 more outside this key's scope",
        );
        expectError(
          await team.delete('/api/v1/signers/team-a-lent-signer'),
          409,
          "Signer team-a-lent-signer is used by relayers: 1 outside this key's scope",
        );
        expectError(
          await app().delete('/api/v1/signers/team-a-shared'),
          409,
          'Signer team-a-shared is used by relayers: team-a-s1, team-b-s1',
        );
        await app().get('/api/v1/signers/team-a-shared').expect(200);
      });

      it('DELETE /notifications/{id}: names the relayers in the scope and counts the others; the administrator is answered as before', async () => {
        expectError(
          await team.delete('/api/v1/notifications/team-a-hook'),
          409,
          "Notification is used by relayers: team-a-1 and 1 more outside this key's scope",
        );
        expectError(
          await team.delete('/api/v1/notifications/team-a-lent-hook'),
          409,
          "Notification is used by relayers: 1 outside this key's scope",
        );
        expectError(
          await app().delete('/api/v1/notifications/team-a-hook'),
          409,
          'Notification is used by relayers: team-a-1, team-b-h1',
        );
      });

      it('a dry run with a signer a relayer outside the scope uses: refused without naming that relayer', async () => {
        expectError(
          await team.post(
            '/api/v1/relayers?dry_run=true',
            relayerBody('evm', { id: 'team-a-dry', signer_id: 'team-a-lent-signer' }),
          ),
          400,
          "Signer with ID team-a-lent-signer is already used by another relayer on evm network 'sepolia'",
        );
      });
    });

    describe('/metrics', () => {
      const scrape = async (client: ReturnType<typeof as>, route: string) => {
        const res = await client.get(route);
        expect({ route, status: res.status }).toEqual({ route, status: 200 });
        return res.text;
      };
      /** The sample lines of `text` (comments left out). */
      const samples = (text: string) =>
        text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));

      beforeAll(async () => {
        for (const id of ['team-a-m1', 'team-b-m1']) {
          await adminRelayer(id, { custom_rpc_urls: [{ url: rpc.url('/rpc'), weight: 100 }] });
          await app().post(`/api/v1/relayers/${id}/check`).expect(200);
        }
        await createKey(app(), {
          name: 'team-b deploy',
          expires_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
        });
      });

      it("a scoped key's metrics: its relayers' series only, no API-key series, no total over every team", async () => {
        const admin = as(app(), app().apiKey);
        const adminNames = JSON.parse(await scrape(admin, '/metrics')) as string[];
        expect(adminNames).toEqual(
          expect.arrayContaining([
            'api_key_expiry_timestamp_seconds',
            'relayer_balance',
            'relayers_system_disabled',
            'webhook_deliveries_total',
            'http_requests_total',
          ]),
        );
        const names = JSON.parse(await scrape(team, '/metrics')) as string[];
        const teamTotals = /^(?:relayers?|webhook|api_key)_/;
        expect(names).toEqual(
          adminNames.filter(
            (name) => !teamTotals.test(name) || ['relayer_balance', 'relayer_low_balance'].includes(name),
          ),
        );
        expect(names).toEqual(
          expect.arrayContaining(['relayer_balance', 'http_requests_total', 'process_cpu_seconds_total']),
        );

        expectError(await team.get('/metrics/api_key_expiry_timestamp_seconds'), 404, 'Metric not found');
        expectError(await team.get('/metrics/relayers_system_disabled'), 404, 'Metric not found');
        const adminBalance = await scrape(admin, '/metrics/relayer_balance');
        expect(samples(adminBalance)).toEqual(
          expect.arrayContaining([
            expect.stringContaining('team-a-m1'),
            expect.stringContaining('team-b-m1'),
          ]),
        );
        // The administrator's text without the lines of relayers outside the scope, byte for byte.
        expect(await scrape(team, '/metrics/relayer_balance')).toBe(
          adminBalance
            .split('\n')
            .filter((line) => !/relayer_id="/.test(line) || /relayer_id="(?:team-a-|pool-)/.test(line))
            .join('\n'),
        );

        const whole = await scrape(team, '/debug/metrics/scrape');
        expect(samples(whole)).toContain(
          'relayer_balance{relayer_id="team-a-m1",network_type="evm",network="sepolia"} 42',
        );
        for (const hidden of ['team-b', 'api_key_expiry', 'relayers_system_disabled', 'webhook_']) {
          expect({ hidden, found: whole.includes(hidden) }).toEqual({ hidden, found: false });
        }
        // The service's own series, as they are.
        expect(samples(whole).some((line) => line.startsWith('http_requests_total{'))).toBe(true);
        const adminWhole = await scrape(admin, '/debug/metrics/scrape');
        expect(adminWhole).toContain('name="team-b deploy"');
        expect(adminWhole).toContain('relayer_id="team-b-m1"');
      });
    });

    describe('target URLs', () => {
      it('a target URL is answered whole to a key that may read it; the audit trail masks it', async () => {
        const res = await team.get('/api/v1/notifications/team-a-hook');
        expect({ status: res.status, body: res.body as unknown }).toEqual({
          status: 200,
          body: successBody({ id: 'team-a-hook', type: 'webhook', url: hookUrl.a, has_signing_key: false }),
        });
        const audit = await app()
          .get('/api/v1/audit?resource_type=notification&resource_id=team-a-hook')
          .expect(200);
        const [created] = (audit.body.data as Array<{ action: string; after: { url: string } }>).filter(
          (record) => record.action === 'notification.create',
        );
        expect(created.after.url).toBe(`${new URL(hookUrl.a).origin}/***?token=***`);
        expect(secrets.foundIn(JSON.stringify(audit.body))).toEqual([]);
      });

      it("GET /api/v1/config: the key's own signers, targets and relayers; a target URL beyond / as NOTIFICATION_<ID>_URL, a bare origin whole", async () => {
        await app()
          .post('/api/v1/notifications', { id: 'team-a-bare', url: 'https://hooks.example.com/' })
          .expect(201);
        const res = await team.get('/api/v1/config');
        expect(res.status).toBe(200);
        const data = res.body.data as Record<string, Array<{ id: string }>>;
        expect(secrets.foundIn(res.text)).toEqual([]);
        const notifications = data.notifications.filter((n) => ['team-a-hook', 'team-a-bare'].includes(n.id));
        expect(notifications).toEqual([
          { id: 'team-a-hook', type: 'webhook', url: { type: 'env', value: 'NOTIFICATION_TEAM_A_HOOK_URL' } },
          { id: 'team-a-bare', type: 'webhook', url: 'https://hooks.example.com/' },
        ]);
        for (const section of ['signers', 'notifications', 'relayers']) {
          const outside = data[section].map((item) => item.id).filter((id) => !covers(id));
          expect({ section, outside }).toEqual({ section, outside: [] });
        }
        expect(data.signers.map((s) => s.id)).toEqual(expect.arrayContaining(['team-a-file', 'team-a-api']));
        // The administrator's export: every target, its URLs by the same rule.
        const adminData = (await app().get('/api/v1/config').expect(200)).body.data as typeof data;
        expect(adminData.notifications.find((n) => n.id === 'team-b-hook')).toEqual({
          id: 'team-b-hook',
          type: 'webhook',
          url: { type: 'env', value: 'NOTIFICATION_TEAM_B_HOOK_URL' },
        });
      });
    });
  },
);
