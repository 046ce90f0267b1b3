import type { Response } from 'supertest';
import { errorBody, expectError, successBody } from '../../support/envelope';
import { JsonRpcServer } from '../../support/json-rpc-server';
import { secrets } from '../../support/secrets';
import { waitFor } from '../../support/wait';
import { useWebhookApp } from '../../support/webhook-app';
import { ISO, relayerBody, UUID } from '../../factories';
import { as } from '../../support/as-key';
import { asPerson, signIn, startSignIn, type SignInSetup } from '../../support/sign-in';

/**
 * docs/reference/keys-and-audit.md#3-relayer-scope: a key with `relayer_ids` sees only those relayers,
 * on every relayer route, in lists, in the audit trail and in a target's delivery log; a relayer
 * outside its scope answers exactly as one that does not exist (OWASP API1).
 */

/** Sepolia's chain id, as the test catalogue has it. */
const SEPOLIA = '0xaa36a7';
const SCOPE = ['team-a-*', 'shared-1', 'ops_x*'];
/** In the scope: the prefix's, the exact id, the prefix with `_` (a LIKE wildcard) taken as itself. */
const IN_SCOPE = ['team-a-1', 'team-a-2', 'team-a-3', 'team-a-4', 'team-a-5', 'shared-1', 'ops_x-1'];
/**
 * Outside it: another team, an id the exact entry is a prefix of, another case (ids compare
 * exactly, on MySQL too), and a character where `_` stands in `ops_x*`.
 */
const OUT_OF_SCOPE = ['team-b-1', 'shared-10', 'TEAM-A-9', 'opsAx-1'];
/** Never created: the answer every out-of-scope id must match. */
const MISSING = 'team-a-404';
const RELAYER_IDS_RULE =
  "relayer_ids must be a non-empty array of at most 100 relayer ids or prefixes ending in '*'";
const ENTRY_RULE =
  "must be a relayer id (1 to 36 characters of letters, digits, '-' or '_') or a prefix of 1 to 35 such characters ending in '*'";

interface CreatedKey {
  id: string;
  key: string;
}

/** Status, type and body with the id asked for replaced: what must be the same for two ids. */
const shape = (res: Response, id: string) => ({
  status: res.status,
  type: res.type,
  body: JSON.parse(res.text.split(id).join('<id>')) as unknown,
});

// The same rules for a person whose role holds the scope as for a key (docs/access.md#roles-from-the-providers-groups-to-permissions): the
// routes' tests run for both; what a key answers about itself and the keys it creates, for keys.
describe.each(['an API key', 'a person signed in'])(
  'relayer scope, held by %s (docs/reference/keys-and-audit.md#3-relayer-scope)',
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
    beforeAll(() => rpc.start());
    afterAll(() => rpc.close());
    const {
      receiver,
      app,
      settled: settledLog,
    } = useWebhookApp(() => ({
      WEBHOOK_RETRY_BASE_MS: '40',
      WEBHOOK_MAX_ATTEMPTS: '1',
      ...signInSetup?.env,
    }));
    /**
     * The team's target: inside the key's scope (relayer_ids cover targets too: docs/reference/keys-and-audit.md#36-signers-and-notification-targets), so that
     * its routes are the key's to use.
     */
    const hook = 'team-a-hook';
    /** The scoped key: every permission the routes need, and the scope. */
    let scoped: ReturnType<typeof as> | ReturnType<typeof asPerson>;
    let scopedKey: CreatedKey;
    /** Every relayer's signer, by id. */
    const signerOf = new Map<string, string>();

    const createKey = async (
      body: Record<string, unknown>,
      token = app().apiKey,
    ): Promise<{ res: Response; key: CreatedKey }> => {
      const res = await as(app(), token).post('/api/v1/api-keys', { name: 'scoped', ...body });
      const key = res.body?.data as CreatedKey;
      if (typeof key?.key === 'string') secrets.add(key.key);
      return { res, key };
    };

    const adminCreate = async (id: string) => {
      const body = relayerBody('evm', {
        id,
        notification_id: hook,
        custom_rpc_urls: [{ url: rpc.url('/rpc'), weight: 100 }],
      });
      signerOf.set(id, body.signer_id);
      await app().post('/api/v1/relayers', body).expect(201);
    };

    beforeAll(async () => {
      await app()
        .post('/api/v1/notifications', { id: hook, url: receiver.url('/hook') })
        .expect(201);
      // Interleaved, so that a page of the unfiltered list holds both.
      for (let i = 0; i < IN_SCOPE.length; i++) {
        await adminCreate(IN_SCOPE[i]);
        if (OUT_OF_SCOPE[i]) await adminCreate(OUT_OF_SCOPE[i]);
      }
      const permissions = [
        'relayers:read',
        'relayers:write',
        'notifications:read',
        'notifications:write',
        'audit:read',
        'api_keys:manage',
      ];
      if (signInSetup) {
        await app()
          .post('/api/v1/roles', {
            id: 'team',
            permissions,
            relayer_ids: [...SCOPE, 'team-a-*', 'pool-*'],
            groups: ['team'],
          })
          .expect(201);
        scoped = asPerson(
          app(),
          await signIn(app(), signInSetup, { sub: 'ada', email: 'ada@example.com', groups: ['team'] }),
        );
        return;
      }
      const created = await createKey({
        permissions,
        // The test catalogue's signers (`pool-…`), shared by every team: listed so that the key's
        // relayers may name them (relayer_ids cover signers too: docs/reference/keys-and-audit.md#36-signers-and-notification-targets).
        relayer_ids: [...SCOPE, 'team-a-*', 'pool-*'],
      });
      expect(created.res.status).toBe(201);
      scopedKey = created.key;
      scoped = as(app(), scopedKey.key);
    });

    // Keys only: what a key answers about itself.
    if (!person) {
      describe('the key', () => {
        it('answers relayer_ids (each entry once) on create and reads; a key without them answers none', async () => {
          const { res, key } = await createKey({
            permissions: ['relayers:read'],
            relayer_ids: ['b-*', 'a', 'b-*'],
          });
          const shown = {
            id: UUID,
            name: 'scoped',
            permissions: ['relayers:read'],
            created_at: ISO,
            expires_at: null,
            last_used_at: null,
            key_prefix: key.key.slice(0, 8),
            created_by_key_id: null,
            relayer_ids: ['b-*', 'a'],
          };
          expect({ status: res.status, body: res.body as unknown }).toEqual({
            status: 201,
            body: successBody({ ...shown, key: key.key }),
          });
          expect((await app().get(`/api/v1/api-keys/${key.id}`).expect(200)).body).toEqual(
            successBody(shown),
          );
          const list = (await app().get('/api/v1/api-keys?per_page=100').expect(200)).body.data as object[];
          expect(list).toContainEqual({ ...shown, id: key.id, created_at: expect.any(String) });
          const plain = await createKey({ permissions: ['relayers:read'], relayer_ids: null });
          expect(plain.res.status).toBe(201);
          expect(Object.keys(plain.res.body.data as object)).not.toContain('relayer_ids');
          const got = await app().get(`/api/v1/api-keys/${plain.key.id}`).expect(200);
          expect(Object.keys(got.body.data as object)).toEqual([
            'id',
            'name',
            'permissions',
            'created_at',
            'expires_at',
            'last_used_at',
            'key_prefix',
            'created_by_key_id',
          ]);
        });

        it.each([
          [[], RELAYER_IDS_RULE],
          ['team-a-*', RELAYER_IDS_RULE],
          [Array.from({ length: 101 }, (_, i) => `r-${i}`), RELAYER_IDS_RULE],
          [['*'], `relayer_ids[0] ${ENTRY_RULE}`],
          [['ok-1', 'a b', 7, 'fine-*'], `relayer_ids[1], relayer_ids[2] ${ENTRY_RULE}`],
          [['x'.repeat(37)], `relayer_ids[0] ${ENTRY_RULE}`],
          [[`${'x'.repeat(36)}*`], `relayer_ids[0] ${ENTRY_RULE}`],
          [['team-*-a'], `relayer_ids[0] ${ENTRY_RULE}`],
          [['team-a-**'], `relayer_ids[0] ${ENTRY_RULE}`],
          [['team%'], `relayer_ids[0] ${ENTRY_RULE}`],
        ])(
          'refuses relayer_ids %j with a 400 naming it, and creates nothing',
          async (relayerIds, message) => {
            const before = (await app().get('/api/v1/api-keys?per_page=1').expect(200)).body
              .pagination as object;
            const { res } = await createKey({ permissions: ['relayers:read'], relayer_ids: relayerIds });
            expectError(res, 400, message);
            expect((await app().get('/api/v1/api-keys?per_page=1').expect(200)).body.pagination).toEqual(
              before,
            );
          },
        );

        it('takes 100 entries of 36 characters and 35 before a *', async () => {
          const entries = Array.from({ length: 100 }, (_, i) =>
            i % 2 === 0 ? `${String(i).padStart(36, 'x')}` : `${String(i).padStart(35, 'y')}*`,
          );
          const { res } = await createKey({ permissions: ['relayers:read'], relayer_ids: entries });
          expect({
            status: res.status,
            relayerIds: (res.body.data as { relayer_ids: unknown }).relayer_ids,
          }).toEqual({ status: 201, relayerIds: entries });
        });
      });
    }

    describe('every relayer route: in the scope as for any key, outside it exactly as a missing relayer', () => {
      it('GET /relayers/{id}', async () => {
        for (const id of IN_SCOPE) {
          const res = await scoped.get(`/api/v1/relayers/${id}`);
          const admin = await app().get(`/api/v1/relayers/${id}`).expect(200);
          expect({ status: res.status, body: res.body as unknown, etag: res.headers.etag }).toEqual({
            status: 200,
            body: admin.body,
            etag: admin.headers.etag,
          });
        }
        const missing = await scoped.get(`/api/v1/relayers/${MISSING}`);
        expectError(missing, 404, `Relayer with ID ${MISSING} not found`);
        for (const id of OUT_OF_SCOPE) {
          const res = await scoped.get(`/api/v1/relayers/${id}`);
          expect(shape(res, id)).toEqual(shape(missing, MISSING));
          await app().get(`/api/v1/relayers/${id}`).expect(200); // the control: it exists
        }
      });

      it('GET /relayers/{id}/status and /balance', async () => {
        for (const route of ['status', 'balance']) {
          const res = await scoped.get(`/api/v1/relayers/team-a-1/${route}`);
          const admin = await app().get(`/api/v1/relayers/team-a-1/${route}`).expect(200);
          expect({ status: res.status, body: res.body as unknown }).toEqual({
            status: 200,
            body: admin.body,
          });
          const missing = await scoped.get(`/api/v1/relayers/${MISSING}/${route}`);
          expectError(missing, 404, `Relayer with ID ${MISSING} not found`);
          for (const id of OUT_OF_SCOPE) {
            expect(shape(await scoped.get(`/api/v1/relayers/${id}/${route}`), id)).toEqual(
              shape(missing, MISSING),
            );
            await app().get(`/api/v1/relayers/${id}/${route}`).expect(200);
          }
        }
      });

      it('POST /relayers/{id}/check: checks in the scope; outside, 404 and no RPC call', async () => {
        const res = await scoped.post('/api/v1/relayers/team-a-2/check');
        expect({ status: res.status, body: res.body as unknown }).toEqual({
          status: 200,
          body: successBody({
            network_type: 'evm',
            balance: '42',
            paused: false,
            system_disabled: false,
            pending_transactions_count: 0,
            last_confirmed_transaction_timestamp: null,
            // No balance alert for it (docs/reference/balance-alerts.md).
            low_balance: null,
            nonce: '7',
            checked_at: ISO,
          }),
        });
        const calls = rpc.received;
        const missing = await scoped.post(`/api/v1/relayers/${MISSING}/check`);
        expectError(missing, 404, `Relayer with ID ${MISSING} not found`);
        for (const id of OUT_OF_SCOPE) {
          expect(shape(await scoped.post(`/api/v1/relayers/${id}/check`), id)).toEqual(
            shape(missing, MISSING),
          );
        }
        expect(rpc.received).toBe(calls);
      });

      it('PATCH /relayers/{id}: writes in the scope; outside, 404 (400 for a bad body, as missing) and nothing changes', async () => {
        const res = await scoped.patch('/api/v1/relayers/team-a-3', { name: 'renamed by a' });
        expect({ status: res.status, name: (res.body.data as { name: string }).name }).toEqual({
          status: 200,
          name: 'renamed by a',
        });
        const missing = await scoped.patch(`/api/v1/relayers/${MISSING}`, { name: 'x' });
        expectError(missing, 404, `Relayer with ID ${MISSING} not found`);
        const badMissing = await scoped.patch(`/api/v1/relayers/${MISSING}`, { name: 5, policies: { x: 1 } });
        expect(badMissing.status).toBe(400);
        for (const id of OUT_OF_SCOPE) {
          const before = (await app().get(`/api/v1/relayers/${id}`).expect(200)).body as object;
          expect(shape(await scoped.patch(`/api/v1/relayers/${id}`, { name: 'x' }), id)).toEqual(
            shape(missing, MISSING),
          );
          expect(
            shape(await scoped.patch(`/api/v1/relayers/${id}`, { name: 5, policies: { x: 1 } }), id),
          ).toEqual(shape(badMissing, MISSING));
          expect((await app().get(`/api/v1/relayers/${id}`).expect(200)).body).toEqual(before);
        }
        // With If-Match (even the relayer's own tag): 404 as for a missing one, never 412 nor a write.
        const tag = (await app().get('/api/v1/relayers/team-b-1').expect(200)).headers.etag;
        const ifMatch = (id: string) =>
          scoped.patch(`/api/v1/relayers/${id}`, { name: 'x' }).set('If-Match', tag);
        expect(shape(await ifMatch('team-b-1'), 'team-b-1')).toEqual(shape(await ifMatch(MISSING), MISSING));
        expect((await app().get('/api/v1/relayers/team-b-1').expect(200)).headers.etag).toBe(tag);
      });

      it('POST /relayers: an id in the scope is created; outside it 403 and nothing; without an id 400 naming id', async () => {
        const inside = relayerBody('evm', { id: 'team-a-new' });
        const created = await scoped.post('/api/v1/relayers', inside);
        expect({ status: created.status, id: (created.body.data as { id: string }).id }).toEqual({
          status: 201,
          id: 'team-a-new',
        });
        for (const id of ['team-b-new', 'TEAM-A-NEW2', 'shared-10x', 'team-A-1']) {
          expectError(await scoped.post('/api/v1/relayers', relayerBody('evm', { id })), 403, 'Forbidden');
          expectError(
            await scoped.post('/api/v1/relayers?dry_run=true', relayerBody('evm', { id })),
            403,
            'Forbidden',
          );
        }
        // Nothing created.
        const ids = (
          (await app().get('/api/v1/relayers?per_page=100').expect(200)).body.data as Array<{ id: string }>
        ).map((relayer) => relayer.id);
        expect(ids).toContain('team-a-new');
        expect(
          ids.filter((id) => ['team-b-new', 'TEAM-A-NEW2', 'shared-10x', 'team-A-1'].includes(id)),
        ).toEqual([]);
        // The administrator's answer for a taken id: the scoped key gets 403 before any conflict.
        expectError(
          await scoped.post('/api/v1/relayers', relayerBody('evm', { id: 'team-b-1' })),
          403,
          'Forbidden',
        );
        const { id: _id, ...anonymous } = relayerBody('evm');
        expectError(
          await scoped.post('/api/v1/relayers', anonymous),
          400,
          'id is required: this API key may create only relayers of its relayer_ids, so it must name one',
        );
      });

      it('POST /relayers with a taken id: 409; the same id in another case is another id, on every database', async () => {
        expectError(
          await scoped.post('/api/v1/relayers', relayerBody('evm', { id: 'team-a-1' })),
          409,
          'Relayer with this ID already exists',
        );
        // `TEAM-A-9` exists, outside the scope: ids compare exactly, on MySQL too
        // (docs/reference/running.md#37-ids-compare-exactly).
        const res = await scoped.post('/api/v1/relayers', relayerBody('evm', { id: 'team-a-9' }));
        expect({ status: res.status, id: (res.body.data as { id: string }).id }).toEqual({
          status: 201,
          id: 'team-a-9',
        });
      });

      it('POST /relayers with a signer an out-of-scope relayer uses: 400 without naming that relayer', async () => {
        const signer = signerOf.get('team-b-1') ?? '';
        expectError(
          await scoped.post('/api/v1/relayers', relayerBody('evm', { id: 'team-a-dup', signer_id: signer })),
          400,
          `Signer with ID ${signer} is already used by another relayer on evm network 'sepolia'`,
        );
        const inScope = signerOf.get('team-a-1') ?? '';
        expectError(
          await scoped.post('/api/v1/relayers', relayerBody('evm', { id: 'team-a-dup', signer_id: inScope })),
          400,
          `Signer with ID ${inScope} is already used by relayer team-a-1 on evm network 'sepolia'`,
        );
      });

      it('DELETE /relayers/{id}: deletes in the scope; outside, 404 and the relayer stays', async () => {
        await app()
          .post('/api/v1/relayers', relayerBody('evm', { id: 'team-a-gone' }))
          .expect(201);
        expect((await scoped.delete('/api/v1/relayers/team-a-gone')).body).toEqual(
          successBody('Relayer deleted successfully'),
        );
        const missing = await scoped.delete(`/api/v1/relayers/${MISSING}`);
        expectError(missing, 404, `Relayer with ID ${MISSING} not found`);
        for (const id of OUT_OF_SCOPE) {
          expect(shape(await scoped.delete(`/api/v1/relayers/${id}`), id)).toEqual(shape(missing, MISSING));
          const tag = (await app().get(`/api/v1/relayers/${id}`).expect(200)).headers.etag;
          const withTag = await scoped.delete(`/api/v1/relayers/${id}`).set('If-Match', tag);
          expect(shape(withTag, id)).toEqual(shape(missing, MISSING));
          await app().get(`/api/v1/relayers/${id}`).expect(200);
        }
      });
    });

    describe('reads', () => {
      const allPages = async (client: ReturnType<typeof as>, path: string, perPage: number) => {
        const ids: string[] = [];
        const totals: number[] = [];
        for (let page = 1; ; page++) {
          const res = await client.get(`${path}?per_page=${perPage}&page=${page}`).expect(200);
          const data = res.body.data as Array<{ id: string }>;
          totals.push((res.body.pagination as { total_items: number }).total_items);
          if (data.length === 0) break;
          ids.push(...data.map((relayer) => relayer.id));
          expect(data.length).toBeLessThanOrEqual(perPage);
        }
        return { ids, totals };
      };

      it('GET /relayers: filtered in the query, every page full, totals right, the same twice', async () => {
        const admin = await allPages(as(app(), app().apiKey), '/api/v1/relayers', 100);
        const expected = admin.ids.filter(
          (id) => id.startsWith('team-a-') || id === 'shared-1' || id.startsWith('ops_x'),
        );
        expect(expected.length).toBeGreaterThanOrEqual(IN_SCOPE.length);
        expect(admin.ids).toEqual(expect.arrayContaining(OUT_OF_SCOPE));
        for (const perPage of [1, 2, 3]) {
          const first = await allPages(scoped, '/api/v1/relayers', perPage);
          expect(first.ids).toEqual(expected);
          expect(new Set(first.totals)).toEqual(new Set([expected.length]));
          expect(await allPages(scoped, '/api/v1/relayers', perPage)).toEqual(first);
        }
        // Each page as a whole: the first page of three is the first three in scope.
        const page = await scoped.get('/api/v1/relayers?per_page=3&page=1').expect(200);
        const adminBodies = (await app().get('/api/v1/relayers?per_page=100').expect(200)).body
          .data as Array<{
          id: string;
        }>;
        expect(page.body).toEqual({
          ...successBody(expected.slice(0, 3).map((id) => adminBodies.find((r) => r.id === id))),
          pagination: { current_page: 1, per_page: 3, total_items: expected.length },
        });
      });

      it('GET /audit: only the records of relayers in the scope, counted and paged so', async () => {
        const admin = (await app().get('/api/v1/audit?per_page=100').expect(200)).body.data as Array<{
          resource_type: string;
          resource_id: string;
        }>;
        const expected = admin.filter(
          (record) =>
            record.resource_type === 'relayer' &&
            (record.resource_id.startsWith('team-a-') ||
              record.resource_id === 'shared-1' ||
              record.resource_id.startsWith('ops_x')),
        );
        expect(admin.length).toBeGreaterThan(expected.length);
        expect(admin.some((r) => OUT_OF_SCOPE.includes(r.resource_id))).toBe(true);
        const res = await scoped.get('/api/v1/audit?per_page=100').expect(200);
        expect(res.body).toEqual({
          ...successBody(expected),
          pagination: { current_page: 1, per_page: 100, total_items: expected.length },
        });
        const paged: unknown[] = [];
        for (let page = 1; page <= Math.ceil(expected.length / 4); page++) {
          paged.push(
            ...((await scoped.get(`/api/v1/audit?per_page=4&page=${page}`).expect(200)).body.data as []),
          );
        }
        expect(paged).toEqual(expected);
        for (const query of ['resource_id=team-b-1', 'resource_type=notification', 'resource_type=api_key']) {
          expect((await scoped.get(`/api/v1/audit?${query}`).expect(200)).body).toEqual({
            ...successBody([]),
            pagination: { current_page: 1, per_page: 10, total_items: 0 },
          });
        }
      });

      it('GET /notifications/{id}/deliveries: only deliveries about relayers in the scope; retry outside is a missing delivery', async () => {
        type Delivery = { id: string; relayer_id: string | null };
        const admin = await waitFor('a delivery for every relayer created', async () => {
          const res = await app().get(`/api/v1/notifications/${hook}/deliveries?per_page=100`).expect(200);
          const data = res.body.data as Delivery[];
          const about = new Set(data.map((d) => d.relayer_id));
          return [...IN_SCOPE, ...OUT_OF_SCOPE].every((id) => about.has(id)) && data;
        });
        const expected = admin.filter(
          (d) =>
            d.relayer_id !== null &&
            (d.relayer_id.startsWith('team-a-') ||
              d.relayer_id === 'shared-1' ||
              d.relayer_id.startsWith('ops_x')),
        );
        const res = await scoped.get(`/api/v1/notifications/${hook}/deliveries?per_page=100`).expect(200);
        // Deliveries move on (attempts) meanwhile: compared by id and relayer.
        expect({
          ids: (res.body.data as Delivery[]).map((d) => [d.id, d.relayer_id]),
          pagination: res.body.pagination as unknown,
        }).toEqual({
          ids: expected.map((d) => [d.id, d.relayer_id]),
          pagination: { current_page: 1, per_page: 100, total_items: expected.length },
        });
        const outside = admin.find((d) => d.relayer_id === 'team-b-1');
        const inside = expected[0];
        expect(outside && inside).toBeTruthy();
        const retried = await scoped.post(`/api/v1/notifications/${hook}/deliveries/${inside.id}/retry`);
        expect({ status: retried.status, id: (retried.body.data as Delivery).id }).toEqual({
          status: 202,
          id: inside.id,
        });
        const missingId = '00000000-0000-4000-8000-000000000000';
        const missing = await scoped.post(`/api/v1/notifications/${hook}/deliveries/${missingId}/retry`);
        expect(missing.status).toBe(404);
        const id = outside?.id ?? '';
        expect(shape(await scoped.post(`/api/v1/notifications/${hook}/deliveries/${id}/retry`), id)).toEqual(
          shape(missing, missingId),
        );
      });
    });

    // Keys only: a person creates keys with what their roles grant, by the same rules.
    if (!person) {
      describe('a key creates keys only with a scope inside its own', () => {
        it.each([[['team-a-*']], [['team-a-sub-*', 'team-a-1']], [['shared-1']], [['ops_x-9', 'ops_xyz*']]])(
          '%j: 201',
          async (relayerIds) => {
            const { res } = await createKey(
              { permissions: ['relayers:read'], relayer_ids: relayerIds },
              scopedKey.key,
            );
            expect({
              status: res.status,
              relayerIds: (res.body.data as { relayer_ids: unknown }).relayer_ids,
            }).toEqual({ status: 201, relayerIds });
          },
        );

        it.each([
          [undefined],
          [null],
          [['team-*']],
          [['team-b-1']],
          [['shared-1*']],
          [['shared-10']],
          [['TEAM-A-*']],
          [['opsAx*']],
          [['team-a-1', 'team-b-1']],
        ])('%j: 403, nothing created', async (relayerIds) => {
          const before = (await app().get('/api/v1/api-keys?per_page=1').expect(200)).body
            .pagination as object;
          const { res } = await createKey(
            {
              permissions: ['relayers:read'],
              ...(relayerIds === undefined ? {} : { relayer_ids: relayerIds }),
            },
            scopedKey.key,
          );
          expect({ status: res.status, body: res.body as unknown }).toEqual({
            status: 403,
            body: errorBody('Forbidden'),
          });
          expect((await app().get('/api/v1/api-keys?per_page=1').expect(200)).body.pagination).toEqual(
            before,
          );
        });

        // A key that sees more was 403: any key it did not create is now a missing one (404,
        // docs/reference/keys-and-audit.md#44-authority-over-keys-comes-from-creating-them).
        it('its child sees only the child’s scope; it may revoke the child, not a key that sees more', async () => {
          const child = await createKey(
            { permissions: ['relayers:read'], relayer_ids: ['team-a-1'] },
            scopedKey.key,
          );
          const asChild = as(app(), child.key.key);
          await asChild.get('/api/v1/relayers/team-a-1').expect(200);
          expectError(
            await asChild.get('/api/v1/relayers/team-a-2'),
            404,
            'Relayer with ID team-a-2 not found',
          );
          const wide = await createKey({ permissions: ['relayers:read'] });
          expectError(await scoped.delete(`/api/v1/api-keys/${wide.key.id}`), 404, 'API key not found');
          await app().get(`/api/v1/api-keys/${wide.key.id}`).expect(200);
          expect((await scoped.delete(`/api/v1/api-keys/${child.key.id}`)).body).toEqual(
            successBody('API key revoked successfully'),
          );
        });

        // As above: 403 before, 404 now.
        it('it may rotate its child, not a key that sees more (and nothing changes)', async () => {
          const child = await createKey(
            { permissions: ['relayers:read'], relayer_ids: ['team-a-1'] },
            scopedKey.key,
          );
          const wide = await createKey({ permissions: ['relayers:read'] });
          expectError(
            await scoped.post(`/api/v1/api-keys/${wide.key.id}/rotate`, {}),
            404,
            'API key not found',
          );
          await as(app(), wide.key.key).get('/api/v1/relayers/team-b-1').expect(200);
          const rotated = await scoped.post(`/api/v1/api-keys/${child.key.id}/rotate`, {});
          expect({ status: rotated.status, id: (rotated.body.data as { id: string }).id }).toEqual({
            status: 201,
            id: child.key.id,
          });
        });
      });
    }

    describe('the routes of balance alerts and webhook operations', () => {
      const alert = (id: string) => `/api/v1/relayers/${id}/balance-alert`;

      it('GET/PUT/DELETE /relayers/{id}/balance-alert: in the scope as for any key; outside, exactly as a missing relayer and nothing changes', async () => {
        const put = await scoped.put(alert('team-a-1'), { threshold: '100' });
        expect({ status: put.status, body: put.body as unknown }).toEqual({
          status: 200,
          body: successBody({ threshold: '100', source: 'relayer' }),
        });
        const got = await scoped.get(alert('team-a-1'));
        expect({ status: got.status, body: got.body as unknown }).toEqual({
          status: 200,
          body: successBody({ threshold: '100', source: 'relayer' }),
        });
        const removed = await scoped.delete(alert('team-a-1'));
        expect({ status: removed.status, body: removed.body as unknown }).toEqual({
          status: 200,
          body: successBody({ threshold: null, source: null }),
        });

        const missing = {
          get: await scoped.get(alert(MISSING)),
          put: await scoped.put(alert(MISSING), { threshold: '5' }),
          bad: await scoped.put(alert(MISSING), { threshold: '-1' }),
          delete: await scoped.delete(alert(MISSING)),
        };
        for (const res of [missing.get, missing.put, missing.delete]) {
          expectError(res, 404, `Relayer with ID ${MISSING} not found`);
        }
        expect(missing.bad.status).toBe(400);
        for (const id of OUT_OF_SCOPE) {
          // A rule of its own, set by the administrator: it must survive every call of the scoped key.
          await app().put(alert(id), { threshold: '7' }).expect(200);
          expect(shape(await scoped.get(alert(id)), id)).toEqual(shape(missing.get, MISSING));
          expect(shape(await scoped.put(alert(id), { threshold: '5' }), id)).toEqual(
            shape(missing.put, MISSING),
          );
          expect(shape(await scoped.put(alert(id), { threshold: '-1' }), id)).toEqual(
            shape(missing.bad, MISSING),
          );
          expect(shape(await scoped.delete(alert(id)), id)).toEqual(shape(missing.delete, MISSING));
          expect((await app().get(alert(id)).expect(200)).body).toEqual(
            successBody({ threshold: '7', source: 'relayer' }),
          );
        }
      });

      describe('PUT/GET /notifications/{id}/subscription', () => {
        const subs = 'team-a-subs';
        const path = `/api/v1/notifications/${subs}/subscription`;
        const audited = async () =>
          (
            (await app().get(`/api/v1/audit?resource_type=notification&resource_id=${subs}`).expect(200)).body
              .pagination as { total_items: number }
          ).total_items;

        beforeAll(async () => {
          await app()
            .post('/api/v1/notifications', { id: subs, url: receiver.url('/subs') })
            .expect(201);
        });

        it('a scoped key subscribes the target to relayers inside its scope (even not created yet), or to none (null)', async () => {
          const before = await audited();
          const res = await scoped.put(path, { relayer_ids: ['team-a-2', 'shared-1', 'team-a-future'] });
          expect({ status: res.status, body: res.body as unknown }).toEqual({
            status: 200,
            body: successBody({ events: null, relayer_ids: ['shared-1', 'team-a-2', 'team-a-future'] }),
          });
          expect((await app().get(path).expect(200)).body).toEqual(res.body);
          const none = await scoped.put(path, { events: ['relayer_created'], relayer_ids: null });
          expect({ status: none.status, body: none.body as unknown }).toEqual({
            status: 200,
            body: successBody({ events: ['relayer_created'], relayer_ids: null }),
          });
          expect(await audited()).toBe(before + 2);
        });

        it.each([
          [['*']],
          [['team-b-1']],
          [['team-a-1', 'team-b-1']],
          [['shared-10']],
          [['TEAM-A-1']],
          [['opsAx-1']],
          [['team-b-not-yet']],
        ])('%j: 403, nothing changed, nothing audited', async (relayerIds) => {
          await app()
            .put(path, { events: null, relayer_ids: ['team-a-3'] })
            .expect(200);
          const before = {
            subscription: (await app().get(path).expect(200)).body as unknown,
            audited: await audited(),
          };
          const res = await scoped.put(path, { relayer_ids: relayerIds });
          expect({ status: res.status, body: res.body as unknown }).toEqual({
            status: 403,
            body: errorBody('Forbidden'),
          });
          expect({
            subscription: (await app().get(path).expect(200)).body as unknown,
            audited: await audited(),
          }).toEqual(before);
        });

        it('GET answers a scoped key only the ids inside its scope; ["*"] as is; null as null', async () => {
          const cases: Array<[string[] | null, string[] | null]> = [
            [
              ['team-b-1', 'shared-10', 'team-a-1', 'shared-1', 'TEAM-A-9', 'ops_x-1'],
              ['ops_x-1', 'shared-1', 'team-a-1'],
            ],
            [['*'], ['*']],
            [['team-b-1'], []],
            [null, null],
          ];
          for (const [stored, shown] of cases) {
            await app()
              .put(path, { events: ['relayer_updated'], relayer_ids: stored })
              .expect(200);
            const admin = (await app().get(path).expect(200)).body as { data: { relayer_ids: unknown } };
            expect(admin.data.relayer_ids).toEqual(stored === null ? null : [...stored].sort());
            const res = await scoped.get(path);
            expect({ status: res.status, body: res.body as unknown }).toEqual({
              status: 200,
              body: successBody({ events: ['relayer_updated'], relayer_ids: shown }),
            });
          }
        });
      });

      describe('PUT /notifications/{id}/subscription of a target two teams share: a scoped key changes only its own part', () => {
        const shared = 'shared-hook';
        const path = `/api/v1/notifications/${shared}/subscription`;
        let teamA: ReturnType<typeof as>;
        let teamB: ReturnType<typeof as>;
        type Audited = { action: string; before: unknown; after: unknown };
        const audit = async (): Promise<Audited[]> =>
          (
            (
              await app()
                .get(`/api/v1/audit?resource_type=notification&resource_id=${shared}&per_page=100`)
                .expect(200)
            ).body as { data: Audited[] }
          ).data.map(({ action, before, after }) => ({ action, before, after }));
        const stored = async () => (await app().get(path).expect(200)).body as unknown;
        const answer = (res: Response) => ({ status: res.status, body: res.body as unknown });
        const teamKey = async (relayerIds: string[] | undefined) => {
          const created = await createKey({
            permissions: ['notifications:read', 'notifications:write'],
            ...(relayerIds ? { relayer_ids: relayerIds } : {}),
          });
          expect(created.res.status).toBe(201);
          return as(app(), created.key.key);
        };

        beforeAll(async () => {
          await app()
            .post('/api/v1/notifications', { id: shared, url: receiver.url('/shared') })
            .expect(201);
          teamA = await teamKey(['team-a-*', shared]);
          teamB = await teamKey(['team-b-*', shared]);
        });

        it("team A's PUT of what its GET showed, with other events, keeps team B's ids; the administrator's GET shows the union; the record holds what is stored", async () => {
          await app()
            .put(path, { events: null, relayer_ids: ['team-a-1', 'team-b-1', 'team-b-2'] })
            .expect(200);
          expect(answer(await teamA.get(path))).toEqual({
            status: 200,
            body: successBody({ events: null, relayer_ids: ['team-a-1'] }),
          });
          const before = await audit();

          expect(
            answer(await teamA.put(path, { events: ['relayer_updated'], relayer_ids: ['team-a-1'] })),
          ).toEqual({
            status: 200,
            body: successBody({ events: ['relayer_updated'], relayer_ids: ['team-a-1'] }),
          });
          expect(await stored()).toEqual(
            successBody({ events: ['relayer_updated'], relayer_ids: ['team-a-1', 'team-b-1', 'team-b-2'] }),
          );
          expect(answer(await teamB.get(path))).toEqual({
            status: 200,
            body: successBody({ events: ['relayer_updated'], relayer_ids: ['team-b-1', 'team-b-2'] }),
          });

          // Its ids replaced by others: team B's stay.
          expect(
            answer(
              await teamA.put(path, { events: ['relayer_updated'], relayer_ids: ['team-a-3', 'team-a-2'] }),
            ),
          ).toEqual({
            status: 200,
            body: successBody({ events: ['relayer_updated'], relayer_ids: ['team-a-2', 'team-a-3'] }),
          });
          expect(await stored()).toEqual(
            successBody({
              events: ['relayer_updated'],
              relayer_ids: ['team-a-2', 'team-a-3', 'team-b-1', 'team-b-2'],
            }),
          );
          // The same again changes nothing and records nothing.
          expect(
            answer(
              await teamA.put(path, { events: ['relayer_updated'], relayer_ids: ['team-a-2', 'team-a-3'] }),
            ),
          ).toEqual({
            status: 200,
            body: successBody({ events: ['relayer_updated'], relayer_ids: ['team-a-2', 'team-a-3'] }),
          });
          expect((await audit()).slice(0, 2)).toEqual([
            {
              action: 'notification.update',
              before: {
                subscription: {
                  events: ['relayer_updated'],
                  relayer_ids: ['team-a-1', 'team-b-1', 'team-b-2'],
                },
              },
              after: {
                subscription: {
                  events: ['relayer_updated'],
                  relayer_ids: ['team-a-2', 'team-a-3', 'team-b-1', 'team-b-2'],
                },
              },
            },
            {
              action: 'notification.update',
              before: { subscription: { events: null, relayer_ids: ['team-a-1', 'team-b-1', 'team-b-2'] } },
              after: {
                subscription: {
                  events: ['relayer_updated'],
                  relayer_ids: ['team-a-1', 'team-b-1', 'team-b-2'],
                },
              },
            },
          ]);
          expect((await audit()).length).toBe(before.length + 2);
        });

        it('[] or null from a scoped key is "none of mine": the other ids stay; with none left the subscription is null', async () => {
          // Only team B's: team A reads [] and may send it back.
          await app()
            .put(path, { events: null, relayer_ids: ['team-b-1'] })
            .expect(200);
          expect(answer(await teamA.get(path))).toEqual({
            status: 200,
            body: successBody({ events: null, relayer_ids: [] }),
          });
          expect(answer(await teamA.put(path, { events: ['relayer_created'], relayer_ids: [] }))).toEqual({
            status: 200,
            body: successBody({ events: ['relayer_created'], relayer_ids: [] }),
          });
          expect(await stored()).toEqual(
            successBody({ events: ['relayer_created'], relayer_ids: ['team-b-1'] }),
          );

          for (const none of [[], null]) {
            await app()
              .put(path, { events: null, relayer_ids: ['team-a-1', 'team-b-1'] })
              .expect(200);
            expect(answer(await teamA.put(path, { relayer_ids: none }))).toEqual({
              status: 200,
              body: successBody({ events: null, relayer_ids: [] }),
            });
            expect(await stored()).toEqual(successBody({ events: null, relayer_ids: ['team-b-1'] }));
          }

          // Only its own: none left, as a subscription to no relayer (null).
          await app()
            .put(path, { events: null, relayer_ids: ['team-a-1'] })
            .expect(200);
          expect(answer(await teamA.put(path, { relayer_ids: [] }))).toEqual({
            status: 200,
            body: successBody({ events: null, relayer_ids: null }),
          });
          expect(await stored()).toEqual(successBody({ events: null, relayer_ids: null }));
          // And from null, its ids are all there is.
          expect(answer(await teamA.put(path, { relayer_ids: ['team-a-5'] }))).toEqual({
            status: 200,
            body: successBody({ events: null, relayer_ids: ['team-a-5'] }),
          });
          expect(await stored()).toEqual(successBody({ events: null, relayer_ids: ['team-a-5'] }));
        });

        it('a stored ["*"] is the whole target\'s: a scoped PUT that would change it is 403, nothing changed or recorded; sending ["*"] back changes the events', async () => {
          await app()
            .put(path, { events: null, relayer_ids: ['*'] })
            .expect(200);
          expect(answer(await teamA.get(path))).toEqual({
            status: 200,
            body: successBody({ events: null, relayer_ids: ['*'] }),
          });
          const before = { subscription: await stored(), audit: await audit() };
          for (const sent of [
            { relayer_ids: ['team-a-1'] },
            { relayer_ids: [] },
            { relayer_ids: null },
            { events: ['relayer_created'] },
          ]) {
            const res = await teamA.put(path, sent);
            expect({ sent, ...answer(res) }).toEqual({ sent, status: 403, body: errorBody('Forbidden') });
          }
          expect({ subscription: await stored(), audit: await audit() }).toEqual(before);

          // The events are the target's, shared by the teams: changed for each of them.
          expect(answer(await teamA.put(path, { events: ['relayer_created'], relayer_ids: ['*'] }))).toEqual({
            status: 200,
            body: successBody({ events: ['relayer_created'], relayer_ids: ['*'] }),
          });
          expect(await stored()).toEqual(successBody({ events: ['relayer_created'], relayer_ids: ['*'] }));
          expect(answer(await teamB.get(path))).toEqual({
            status: 200,
            body: successBody({ events: ['relayer_created'], relayer_ids: ['*'] }),
          });
          // Setting it is still refused where it is not stored.
          await app()
            .put(path, { events: null, relayer_ids: ['team-b-1'] })
            .expect(200);
          expect(answer(await teamA.put(path, { relayer_ids: ['*'] }))).toEqual({
            status: 403,
            body: errorBody('Forbidden'),
          });
          expect(await stored()).toEqual(successBody({ events: null, relayer_ids: ['team-b-1'] }));
        });

        it('a key without a scope still replaces the whole list, [] from it still a 400', async () => {
          const unscoped = await teamKey(undefined);
          await app()
            .put(path, { events: null, relayer_ids: ['team-a-1', 'team-b-1', 'team-b-2'] })
            .expect(200);
          expect(answer(await unscoped.put(path, { relayer_ids: ['team-b-1'] }))).toEqual({
            status: 200,
            body: successBody({ events: null, relayer_ids: ['team-b-1'] }),
          });
          expect(await stored()).toEqual(successBody({ events: null, relayer_ids: ['team-b-1'] }));
          expect(answer(await unscoped.put(path, { relayer_ids: null }))).toEqual({
            status: 200,
            body: successBody({ events: null, relayer_ids: null }),
          });
          expectError(
            await unscoped.put(path, { relayer_ids: [] }),
            400,
            'relayer_ids must be ["*"], an array of 1 to 1000 relayer ids, or null',
          );
          expect(await stored()).toEqual(successBody({ events: null, relayer_ids: null }));
        });

        it('the ids kept count towards the 1000: a scoped PUT beyond them is a 409, nothing changed', async () => {
          const others = Array.from({ length: 600 }, (_, i) => `team-b-${String(i).padStart(4, '0')}`);
          const mine = Array.from({ length: 401 }, (_, i) => `team-a-${String(i).padStart(4, '0')}`);
          await app().put(path, { events: null, relayer_ids: others }).expect(200);
          const before = { subscription: await stored(), audit: await audit() };
          expectError(
            await teamA.put(path, { relayer_ids: mine }),
            409,
            "The subscription would name 1001 relayer ids, 600 of them outside this key's scope: at most 1000",
          );
          expect({ subscription: await stored(), audit: await audit() }).toEqual(before);
          expect(answer(await teamA.put(path, { relayer_ids: mine.slice(1) }))).toEqual({
            status: 200,
            body: successBody({ events: null, relayer_ids: mine.slice(1) }),
          });
          expect(await stored()).toEqual(
            successBody({ events: null, relayer_ids: [...mine.slice(1), ...others] }),
          );
        });
      });

      describe('POST /notifications/{id}/deliveries/replay and GET /notifications/{id}/stats', () => {
        const ops = 'team-a-ops';
        type Delivery = {
          id: string;
          relayer_id: string | null;
          status: string;
          attempts: number;
          last_error: string | null;
          delivered_at: string | null;
        };
        const deliveries = async () =>
          (await app().get(`/api/v1/notifications/${ops}/deliveries?per_page=100`).expect(200)).body
            .data as Delivery[];
        const about = (list: Delivery[], relayer: string | null) => {
          const found = list.find((d) => d.relayer_id === relayer);
          if (!found) throw new Error(`no delivery about ${relayer}`);
          return found;
        };
        /** Until `count` deliveries of the target have ended and none is pending. */
        const settled = async (count: number) => {
          const list = (await settledLog(ops, count)) as unknown as Delivery[];
          expect(list).toHaveLength(count);
          return list;
        };
        const stats = async (client: ReturnType<typeof as>) => {
          const res = await client.get(`/api/v1/notifications/${ops}/stats?window=1h`);
          expect(res.status).toBe(200);
          return res.body.data as Record<string, unknown> & {
            latency_ms: { p50: number; p95: number; max: number };
            last_failed_at: string;
          };
        };

        beforeAll(async () => {
          await app()
            .post('/api/v1/notifications', { id: ops, url: receiver.url('/ops') })
            .expect(201);
          // In commit order: a's first delivered, b's first delivered after 400 ms, a's second refused
          // (HTTP 500), b's second refused (HTTP 503); then a test event (about no relayer) delivered.
          receiver.script('/ops', [
            { status: 200 },
            { status: 200, delayMs: 400 },
            { status: 500 },
            { status: 503 },
          ]);
          for (const id of ['team-a-op1', 'team-b-op1', 'team-a-op2', 'team-b-op2']) {
            await app()
              .post('/api/v1/relayers', relayerBody('evm', { id, notification_id: ops }))
              .expect(201);
          }
          await settled(4);
          await app().post(`/api/v1/notifications/${ops}/test`).expect(200);
          const list = await settled(5);
          expect(list.map((d) => [d.relayer_id, d.status, d.attempts, d.last_error])).toEqual([
            [null, 'delivered', 1, null],
            ['team-b-op2', 'failed', 1, 'HTTP 503'],
            ['team-a-op2', 'failed', 1, 'HTTP 500'],
            ['team-b-op1', 'delivered', 1, null],
            ['team-a-op1', 'delivered', 1, null],
          ]);
        });

        it('stats: a scoped key gets those of the deliveries about its relayers alone; the administrator those of all', async () => {
          const list = await deliveries();
          const admin = await stats(as(app(), app().apiKey));
          expect(admin).toEqual({
            window: '1h',
            delivered: 3,
            failed: 2,
            pending: 0,
            retried: 0,
            success_rate: 0.6,
            latency_ms: { p50: expect.any(Number), p95: expect.any(Number), max: expect.any(Number) },
            last_delivered_at: about(list, null).delivered_at,
            last_failed_at: ISO,
            last_error: 'HTTP 503',
          });
          expect(admin.latency_ms.max).toBeGreaterThanOrEqual(400);
          const mine = await stats(scoped);
          expect(mine).toEqual({
            window: '1h',
            delivered: 1,
            failed: 1,
            pending: 0,
            retried: 0,
            success_rate: 0.5,
            latency_ms: { p50: mine.latency_ms.max, p95: mine.latency_ms.max, max: expect.any(Number) },
            last_delivered_at: about(list, 'team-a-op1').delivered_at,
            last_failed_at: ISO,
            last_error: 'HTTP 500',
          });
          // Only team-a-op1's answer, at once: not team-b-op1's, 400 ms later than its own (the margin:
          // team-a-op1's would have to take 400 ms longer than team-b-op1's on the same machine).
          expect(mine.latency_ms.max).toBeLessThan(admin.latency_ms.max);
          // team-a-op2 failed before team-b-op2.
          expect(Date.parse(mine.last_failed_at)).toBeLessThan(Date.parse(admin.last_failed_at));
          expect(Date.parse(mine.last_failed_at)).toBeGreaterThanOrEqual(
            Date.parse(about(list, 'team-a-op1').delivered_at ?? ''),
          );
        });

        it('replay: a scoped key queues, and counts as remaining, only deliveries about its relayers', async () => {
          const failed = await scoped.post(`/api/v1/notifications/${ops}/deliveries/replay`, {
            status: 'failed',
          });
          expect({ status: failed.status, body: failed.body as unknown }).toEqual({
            status: 202,
            body: successBody({ queued: 1, remaining: 0, skipped: 0 }),
          });
          let list = await settled(5);
          expect(list.map((d) => [d.relayer_id, d.status, d.attempts])).toEqual([
            [null, 'delivered', 1],
            ['team-b-op2', 'failed', 1],
            ['team-a-op2', 'delivered', 2],
            ['team-b-op1', 'delivered', 1],
            ['team-a-op1', 'delivered', 1],
          ]);
          // Delivered: team-a's two, not team-b-op1 nor the test event (about no relayer); team-a-op2 was
          // replayed within the hour: skipped, not queued.
          const delivered = await scoped.post(`/api/v1/notifications/${ops}/deliveries/replay`, {
            status: 'delivered',
          });
          expect({ status: delivered.status, body: delivered.body as unknown }).toEqual({
            status: 202,
            body: successBody({ queued: 1, remaining: 0, skipped: 1 }),
          });
          list = await waitFor('team-a-op1 delivered again', async () => {
            const now = await settled(5);
            return now.some((d) => d.relayer_id === 'team-a-op1' && d.attempts === 2) && now;
          });
          expect(list.map((d) => [d.relayer_id, d.status, d.attempts])).toEqual([
            [null, 'delivered', 1],
            ['team-b-op2', 'failed', 1],
            ['team-a-op2', 'delivered', 2],
            ['team-b-op1', 'delivered', 1],
            ['team-a-op1', 'delivered', 2],
          ]);
          // The administrator's replay takes every relayer's: team-b-op2, the one failed left.
          const admin = await app().post(`/api/v1/notifications/${ops}/deliveries/replay`, {
            status: 'failed',
          });
          expect({ status: admin.status, body: admin.body as unknown }).toEqual({
            status: 202,
            body: successBody({ queued: 1, remaining: 0, skipped: 0 }),
          });
        });
      });
    });
  },
);
