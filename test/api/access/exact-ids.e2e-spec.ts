import type { Response } from 'supertest';
import { as } from '../../support/as-key';
import { expectError, successBody } from '../../support/envelope';
import { useTestApp } from '../../support/test-app';
import { createKey, relayerBody, signerKey } from '../../factories';

/**
 * docs/reference/running.md#37-ids-compare-exactly: `team-a-1` and `TEAM-A-1` are two ids on SQLite
 * as on MySQL, whose default collation ignores case. A lookup by one never finds the other: it
 * answers as any missing id and changes nothing.
 */

/** The id of a created resource, or undefined when the answer holds none. */
const idOf = (res: Response): string | undefined => (res.body?.data as { id?: string } | null)?.id;

/** The ids of a list's page. */
const idsOf = (res: Response): string[] => (res.body.data as Array<{ id: string }>).map((item) => item.id);

/** Status and body: everything a client reads of an answer. */
const answer = (res: Response) => ({ status: res.status, body: res.body as unknown });

describe('ids compare exactly, case included, on every database', () => {
  const handle = useTestApp();
  const app = () => handle.current;

  describe('relayers', () => {
    it('TEAM-A-1 is missing while team-a-1 exists: GET, PATCH and DELETE answer 404 and change nothing', async () => {
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { id: 'team-a-1', name: 'lower' }))
        .expect(201);
      const stored = answer(await app().get('/api/v1/relayers/team-a-1').expect(200));
      const missing = 'Relayer with ID TEAM-A-1 not found';
      expectError(await app().get('/api/v1/relayers/TEAM-A-1'), 404, missing);
      expectError(await app().get('/api/v1/relayers/TEAM-A-1/status'), 404, missing);
      expectError(await app().patch('/api/v1/relayers/TEAM-A-1', { name: 'upper' }), 404, missing);
      expectError(await app().delete('/api/v1/relayers/TEAM-A-1'), 404, missing);
      expect(answer(await app().get('/api/v1/relayers/team-a-1'))).toEqual(stored);
    });

    it('TEAM-A-2 is created beside team-a-2 as another relayer; PATCH and DELETE touch only the one named', async () => {
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { id: 'team-a-2', name: 'lower' }))
        .expect(201);
      const lower = answer(await app().get('/api/v1/relayers/team-a-2').expect(200));
      const created = await app().post(
        '/api/v1/relayers',
        relayerBody('evm', { id: 'TEAM-A-2', name: 'upper' }),
      );
      expect({ status: created.status, id: idOf(created) }).toEqual({
        status: 201,
        id: 'TEAM-A-2',
      });
      const renamed = await app().patch('/api/v1/relayers/TEAM-A-2', { name: 'upper renamed' });
      expect({ status: renamed.status, name: (renamed.body.data as { name: string }).name }).toEqual({
        status: 200,
        name: 'upper renamed',
      });
      expect(answer(await app().get('/api/v1/relayers/team-a-2'))).toEqual(lower);
      const list = (await app().get('/api/v1/relayers?per_page=100').expect(200)).body.data as Array<{
        id: string;
        name: string;
      }>;
      expect(list.filter((r) => r.id.toLowerCase() === 'team-a-2').map((r) => [r.id, r.name])).toEqual([
        ['team-a-2', 'lower'],
        ['TEAM-A-2', 'upper renamed'],
      ]);
      // The audit trail's filter is exact too: each id's records are its own.
      const trail = async (id: string) =>
        (
          (await app().get(`/api/v1/audit?resource_type=relayer&resource_id=${id}`).expect(200)).body
            .data as Array<{ action: string; resource_id: string }>
        ).map((record) => [record.action, record.resource_id]);
      expect(await trail('TEAM-A-2')).toEqual([
        ['relayer.update', 'TEAM-A-2'],
        ['relayer.create', 'TEAM-A-2'],
      ]);
      expect(await trail('team-a-2')).toEqual([['relayer.create', 'team-a-2']]);
      expect(await trail('team-a-2%20')).toEqual([]);

      expect(answer(await app().delete('/api/v1/relayers/TEAM-A-2'))).toEqual({
        status: 200,
        body: successBody('Relayer deleted successfully'),
      });
      expectError(await app().get('/api/v1/relayers/TEAM-A-2'), 404, 'Relayer with ID TEAM-A-2 not found');
      expect(answer(await app().get('/api/v1/relayers/team-a-2'))).toEqual(lower);
    });

    it('a relayer body names its signer and notification exactly: another case answers as a missing one', async () => {
      await app()
        .post('/api/v1/signers', { id: 'team-a-key', type: 'plain', config: { key: signerKey() } })
        .expect(201);
      await app()
        .post('/api/v1/notifications', { id: 'team-a-hook', url: 'https://hooks.example.com/a' })
        .expect(201);
      expectError(
        await app().post('/api/v1/relayers', relayerBody('evm', { signer_id: 'TEAM-A-KEY' })),
        400,
        'Signer with ID TEAM-A-KEY not found',
      );
      expectError(
        await app().post('/api/v1/relayers', relayerBody('evm', { notification_id: 'TEAM-A-HOOK' })),
        400,
        'Notification with ID TEAM-A-HOOK not found',
      );
      const { id } = relayerBody('evm');
      const exact = await app().post(
        '/api/v1/relayers',
        relayerBody('evm', { id, signer_id: 'team-a-key', notification_id: 'team-a-hook' }),
      );
      expect(exact.status).toBe(201);
      expectError(
        await app().patch(`/api/v1/relayers/${id}`, { notification_id: 'TEAM-A-HOOK' }),
        400,
        'Notification with ID TEAM-A-HOOK not found',
      );
    });
  });

  describe('signers', () => {
    it('TEAM-B-1 is missing while team-b-1 exists; created, it is another signer, deleted alone', async () => {
      const lower = await app().post('/api/v1/signers', {
        id: 'team-b-1',
        type: 'plain',
        config: { key: signerKey() },
      });
      expect(lower.status).toBe(201);
      const stored = answer(await app().get('/api/v1/signers/team-b-1').expect(200));
      const missing = 'Signer with ID TEAM-B-1 not found';
      expectError(await app().get('/api/v1/signers/TEAM-B-1'), 404, missing);
      expectError(await app().delete('/api/v1/signers/TEAM-B-1'), 404, missing);
      expect(answer(await app().get('/api/v1/signers/team-b-1'))).toEqual(stored);

      const upper = await app().post('/api/v1/signers', {
        id: 'TEAM-B-1',
        type: 'plain',
        config: { key: signerKey() },
      });
      expect({ status: upper.status, id: idOf(upper) }).toEqual({
        status: 201,
        id: 'TEAM-B-1',
      });
      expect((upper.body.data as { addresses: unknown }).addresses).not.toEqual(
        (lower.body.data as { addresses: unknown }).addresses,
      );
      expect(answer(await app().delete('/api/v1/signers/TEAM-B-1'))).toEqual({
        status: 200,
        body: successBody('Signer deleted successfully'),
      });
      expectError(await app().get('/api/v1/signers/TEAM-B-1'), 404, missing);
      expect(answer(await app().get('/api/v1/signers/team-b-1'))).toEqual(stored);
    });
  });

  describe('notification targets', () => {
    it('TEAM-C-1 is missing while team-c-1 exists; created, it is another target; PATCH and DELETE touch only it', async () => {
      await app()
        .post('/api/v1/notifications', { id: 'team-c-1', url: 'https://hooks.example.com/lower' })
        .expect(201);
      const stored = answer(await app().get('/api/v1/notifications/team-c-1').expect(200));
      const missing = 'Notification not found';
      expectError(await app().get('/api/v1/notifications/TEAM-C-1'), 404, missing);
      expectError(
        await app().patch('/api/v1/notifications/TEAM-C-1', { url: 'https://hooks.example.com/upper' }),
        404,
        missing,
      );
      expectError(await app().delete('/api/v1/notifications/TEAM-C-1'), 404, missing);
      expect(answer(await app().get('/api/v1/notifications/team-c-1'))).toEqual(stored);

      const created = await app().post('/api/v1/notifications', {
        id: 'TEAM-C-1',
        url: 'https://hooks.example.com/upper',
      });
      expect(answer(created)).toEqual({
        status: 201,
        body: successBody({
          id: 'TEAM-C-1',
          type: 'webhook',
          url: 'https://hooks.example.com/upper',
          has_signing_key: false,
        }),
      });
      const patched = await app().patch('/api/v1/notifications/TEAM-C-1', {
        url: 'https://hooks.example.com/upper-2',
      });
      expect({ status: patched.status, url: (patched.body.data as { url: string }).url }).toEqual({
        status: 200,
        url: 'https://hooks.example.com/upper-2',
      });
      expect(answer(await app().get('/api/v1/notifications/team-c-1'))).toEqual(stored);
      expect(answer(await app().delete('/api/v1/notifications/TEAM-C-1'))).toEqual({
        status: 200,
        body: successBody('Notification deleted successfully'),
      });
      expectError(await app().get('/api/v1/notifications/TEAM-C-1'), 404, missing);
      expect(answer(await app().get('/api/v1/notifications/team-c-1'))).toEqual(stored);
    });
  });

  describe('API keys', () => {
    it('its id in upper case names no key: GET, rotate and revoke answer 404, also for the key itself', async () => {
      const manager = await createKey(app(), {
        name: 'exact',
        permissions: ['relayers:read', 'api_keys:manage'],
      });
      const upper = manager.id.toUpperCase();
      expect(upper).not.toBe(manager.id); // a UUID has letters
      const stored = answer(await app().get(`/api/v1/api-keys/${manager.id}`).expect(200));
      const missing = 'API key not found';
      expectError(await app().get(`/api/v1/api-keys/${upper}`), 404, missing);
      expectError(await app().get(`/api/v1/api-keys/${upper}/permissions`), 404, missing);
      // The reported case: a key rotating itself through its id in another case.
      expectError(await as(app(), manager.key).post(`/api/v1/api-keys/${upper}/rotate`), 404, missing);
      expectError(await app().post(`/api/v1/api-keys/${upper}/rotate`), 404, missing);
      expectError(await as(app(), manager.key).delete(`/api/v1/api-keys/${upper}`), 404, missing);
      expectError(await app().delete(`/api/v1/api-keys/${upper}`), 404, missing);
      // Nothing happened to it: same record, and its one secret still works.
      expect(answer(await app().get(`/api/v1/api-keys/${manager.id}`))).toEqual(stored);
      const self = await as(app(), manager.key).get('/api/v1/api-keys/self');
      expect({ status: self.status, id: (self.body.data as { id: string }).id }).toEqual({
        status: 200,
        id: manager.id,
      });
    });
  });

  describe('networks', () => {
    it('a network id is its lower-case <type>:<name>: another case is a 404, and nothing changes', async () => {
      const stored = answer(await app().get('/api/v1/networks/evm:sepolia').expect(200));
      const alert = answer(await app().get('/api/v1/networks/evm:sepolia/balance-alert').expect(200));
      for (const id of ['EVM:SEPOLIA', 'evm:Sepolia']) {
        const missing = `Network with ID '${id}' not found`;
        expectError(await app().get(`/api/v1/networks/${id}`), 404, missing);
        expectError(
          await app().patch(`/api/v1/networks/${id}`, { rpc_urls: ['https://rpc.example.com/other'] }),
          404,
          missing,
        );
        expectError(await app().get(`/api/v1/networks/${id}/balance-alert`), 404, missing);
        expectError(
          await app().put(`/api/v1/networks/${id}/balance-alert`, { threshold: '1000' }),
          404,
          missing,
        );
      }
      expect(answer(await app().get('/api/v1/networks/evm:sepolia'))).toEqual(stored);
      expect(answer(await app().get('/api/v1/networks/evm:sepolia/balance-alert'))).toEqual(alert);
      // A network's name in another case is no relayer's network either (held before the migration too).
      const body = relayerBody('evm');
      await app().post('/api/v1/relayers', body).expect(201);
      const byName = async (network: string) =>
        idsOf(await app().get(`/api/v1/relayers?network=${network}&per_page=100`).expect(200));
      expect(await byName('sepolia')).toContain(body.id);
      expect(await byName('SEPOLIA')).toEqual([]);
    });
  });

  describe('a scope of team-d-*', () => {
    it('does not cover TEAM-D-2, whose case differs: the key creates team-d-2 beside it and never sees it', async () => {
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { id: 'TEAM-D-2', name: 'another team' }))
        .expect(201);
      const scoped = await createKey(app(), {
        name: 'exact',
        permissions: ['relayers:read', 'relayers:write', 'audit:read'],
        // The test catalogue's pool of signers is shared by every team.
        relayer_ids: ['team-d-*', 'pool-*'],
      });
      const team = as(app(), scoped.key);
      expectError(await team.get('/api/v1/relayers/TEAM-D-2'), 404, 'Relayer with ID TEAM-D-2 not found');
      const created = await team.post(
        '/api/v1/relayers',
        relayerBody('evm', { id: 'team-d-2', name: 'ours' }),
      );
      expect({ status: created.status, id: idOf(created) }).toEqual({
        status: 201,
        id: 'team-d-2',
      });
      const got = await team.get('/api/v1/relayers/team-d-2');
      expect({ status: got.status, name: (got.body.data as { name: string }).name }).toEqual({
        status: 200,
        name: 'ours',
      });
      const listed = await team.get('/api/v1/relayers?per_page=100');
      expect({
        ids: idsOf(listed),
        total: listed.body.pagination.total_items as unknown,
      }).toEqual({ ids: ['team-d-2'], total: 1 });
      const trail = await team.get('/api/v1/audit?per_page=100');
      expect(
        (trail.body.data as Array<{ action: string; resource_id: string }>).map((record) => [
          record.action,
          record.resource_id,
        ]),
      ).toEqual([['relayer.create', 'team-d-2']]);
      // The administrator sees both, each its own.
      const other = await app().get('/api/v1/relayers/TEAM-D-2');
      expect({ status: other.status, name: (other.body.data as { name: string }).name }).toEqual({
        status: 200,
        name: 'another team',
      });
    });
  });

  describe('order', () => {
    it('ids sort byte for byte, as on SQLite: upper case before lower case, `-` before `_`', async () => {
      const hook = 'order-hook';
      await app()
        .post('/api/v1/notifications', { id: hook, url: 'https://hooks.example.com/order' })
        .expect(201);
      const ids = ['order_b', 'order-b', 'ORDER-B', 'Order-b', 'order-B', 'order-a'];
      for (const id of ids) {
        await app()
          .post('/api/v1/relayers', relayerBody('evm', { id, notification_id: hook }))
          .expect(201);
      }
      expectError(
        await app().delete(`/api/v1/notifications/${hook}`),
        409,
        'Notification is used by relayers: ORDER-B, Order-b, order-B, order-a, order-b, order_b',
      );
    });
  });
});
