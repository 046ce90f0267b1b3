import { as } from '../../support/as-key';
import { errorBody, successBody } from '../../support/envelope';
import { useTestApp } from '../../support/test-app';
import {
  createKey,
  createRelayerFixtures,
  relayerBody,
  relayersInEveryState,
  setBalanceAlert,
} from '../../factories';

/**
 * docs/reference/relayers.md#34-the-summary: GET /api/v1/relayers/summary counts the relayers the key
 * may see by state (as the list's state filter finds them), low balance (as each one's status says)
 * and never checked.
 */

const FIXTURES = relayersInEveryState('s', 't');

describe('GET /api/v1/relayers/summary', () => {
  const handle = useTestApp();
  const app = () => handle.current;

  const summary = async (key = app().apiKey, query = '') => {
    const res = await as(app(), key).get(`/api/v1/relayers/summary${query}`);
    return { status: res.status, body: res.body as unknown };
  };

  it('with no relayer: zeros', async () => {
    expect(await summary()).toEqual({
      status: 200,
      body: successBody({ total: 0, enabled: 0, paused: 0, disabled: 0, low_balance: 0, unchecked: 0 }),
    });
  });

  describe('with relayers in every state', () => {
    beforeAll(async () => {
      await createRelayerFixtures(handle, FIXTURES);
      // Checks the API cannot make here (RELAYER_HEALTH_CHECKS is off): s01, s03 and s06 found below
      // their last threshold, s09 above it; the others never checked.
      await handle.database.exec(
        "UPDATE relayer_checks SET checked_at = '2026-01-01 00:00:00.000', balance = '5', balance_low = 1 " +
          "WHERE relayer_id IN ('s01', 's03', 's06')",
      );
      await handle.database.exec(
        "UPDATE relayer_checks SET checked_at = '2026-01-01 00:00:00.000', balance = '500', balance_low = 0 " +
          "WHERE relayer_id = 's09'",
      );
      // s01 by its own threshold, s03 by its network's; s06's own null silences its network's.
      await setBalanceAlert(app(), 'relayers/s01', '10');
      await setBalanceAlert(app(), 'networks/evm:mainnet', '10');
      await setBalanceAlert(app(), 'networks/solana:devnet', '10');
      await setBalanceAlert(app(), 'relayers/s06', null);
    });

    it('counts every relayer: the states as the list filters them (paused as paused=true), low balance as each status says, never checked', async () => {
      expect(await summary()).toEqual({
        status: 200,
        body: successBody({ total: 10, enabled: 4, paused: 4, disabled: 3, low_balance: 2, unchecked: 6 }),
      });
      // The same relayers as the list's filters find, and the same as their statuses say.
      const listed: Record<string, string[]> = {};
      for (const state of ['enabled', 'paused', 'disabled', 'low_balance', 'unchecked']) {
        // Paused: every paused relayer, disabled or not (paused=true).
        const filter = state === 'paused' ? 'paused=true' : `state=${state}`;
        const page = await app().get(`/api/v1/relayers?${filter}`).expect(200);
        listed[state] = (page.body.data as Array<{ id: string }>).map((r) => r.id);
      }
      expect(listed).toEqual({
        enabled: ['s01', 's03', 's06', 's09'],
        paused: ['s02', 's05', 's07', 't10'],
        disabled: ['s04', 's05', 's08'],
        low_balance: ['s01', 's03'],
        unchecked: ['s02', 's04', 's05', 's07', 's08', 't10'],
      });
      const statuses = await Promise.all(
        FIXTURES.map(
          async (f) =>
            (await app().get(`/api/v1/relayers/${f.id}/status`).expect(200)).body.data as {
              low_balance: boolean | null;
              checked_at: string | null;
            },
        ),
      );
      const ids = (keep: (status: (typeof statuses)[number]) => boolean) =>
        FIXTURES.filter((_, i) => keep(statuses[i])).map((f) => f.id);
      expect({
        low: ids((s) => s.low_balance === true),
        unchecked: ids((s) => s.checked_at === null),
      }).toEqual({
        low: listed.low_balance,
        unchecked: listed.unchecked,
      });
    });

    it('a threshold removed: no longer low', async () => {
      await app().delete('/api/v1/relayers/s01/balance-alert').expect(200);
      expect((await summary()).body).toEqual(
        successBody({ total: 10, enabled: 4, paused: 4, disabled: 3, low_balance: 1, unchecked: 6 }),
      );
      await setBalanceAlert(app(), 'relayers/s01', '10');
    });

    it('a scoped key counts only the relayers of its scope', async () => {
      const key = await createKey(app(), { permissions: ['relayers:read'], relayer_ids: ['s0*'] });
      expect(await summary(key.key)).toEqual({
        status: 200,
        body: successBody({ total: 9, enabled: 4, paused: 3, disabled: 3, low_balance: 2, unchecked: 5 }),
      });
      const none = await createKey(app(), { permissions: ['relayers:read'], relayer_ids: ['x-*'] });
      expect((await summary(none.key)).body).toEqual(
        successBody({ total: 0, enabled: 0, paused: 0, disabled: 0, low_balance: 0, unchecked: 0 }),
      );
    });

    it('a relayer whose id is summary: GET of the path answers the summary; PATCH and DELETE reach the relayer', async () => {
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { id: 'summary' }))
        .expect(201);
      expect((await summary()).body).toEqual(
        successBody({ total: 11, enabled: 5, paused: 4, disabled: 3, low_balance: 2, unchecked: 7 }),
      );
      const patched = await app().patch('/api/v1/relayers/summary', { name: 'renamed' }).expect(200);
      expect((patched.body.data as { id: string; name: string }).name).toBe('renamed');
      await app().delete('/api/v1/relayers/summary').expect(200);
      // Paths are matched as written (ids byte for byte, docs/reference/running.md): SUMMARY is an id.
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { id: 'SUMMARY' }))
        .expect(201);
      const upper = await app().get('/api/v1/relayers/SUMMARY');
      expect({ status: upper.status, id: (upper.body.data as { id?: string }).id }).toEqual({
        status: 200,
        id: 'SUMMARY',
      });
      await app().delete('/api/v1/relayers/SUMMARY').expect(200);
      expect((await summary()).body).toEqual(
        successBody({ total: 10, enabled: 4, paused: 4, disabled: 3, low_balance: 2, unchecked: 6 }),
      );
    });

    describe('include=notifications: the webhook targets counted beside the relayers, in the same answer', () => {
      const COUNTS = { total: 10, enabled: 4, paused: 4, disabled: 3, low_balance: 2, unchecked: 6 };
      // The scope s0* holds the last two (docs/reference/keys-and-audit.md#36-signers-and-notification-targets).
      const HOOKS = ['hook-a', 's0-hook-b', 's0-hook-c'];

      beforeAll(async () => {
        for (const id of HOOKS)
          await app()
            .post('/api/v1/notifications', { id, url: `https://hooks.example.com/${id}` })
            .expect(201);
        // A paused target is failing (docs/reference/webhooks.md#97-failing-targets-and-the-summary).
        await app().post('/api/v1/notifications/s0-hook-b/pause').expect(200);
      });

      afterAll(async () => {
        for (const id of HOOKS) await app().delete(`/api/v1/notifications/${id}`).expect(200);
      });

      it('adds what GET /api/v1/notifications/summary answers, under notifications', async () => {
        const targets = { total: 3, running: 2, paused: 1, failing: 1 };
        expect(await summary(app().apiKey, '?include=notifications')).toEqual({
          status: 200,
          body: successBody({ ...COUNTS, notifications: targets }),
        });
        const alone = await app().get('/api/v1/notifications/summary');
        expect({ status: alone.status, body: alone.body as unknown }).toEqual({
          status: 200,
          body: successBody(targets),
        });
        // Without it, the relayers' counts alone; the other parameters are still ignored.
        expect(await summary(app().apiKey, '?state=paused')).toEqual({
          status: 200,
          body: successBody(COUNTS),
        });
      });

      it('counts for a scoped key the targets of its scope, as its own notifications summary does', async () => {
        const key = await createKey(app(), {
          permissions: ['relayers:read', 'notifications:read'],
          relayer_ids: ['s0*'],
        });
        const alone = await as(app(), key.key).get('/api/v1/notifications/summary');
        expect({ status: alone.status, body: alone.body as unknown }).toEqual({
          status: 200,
          body: successBody({ total: 2, running: 1, paused: 1, failing: 1 }),
        });
        expect(await summary(key.key, '?include=notifications')).toEqual({
          status: 200,
          body: successBody({
            total: 9,
            enabled: 4,
            paused: 3,
            disabled: 3,
            low_balance: 2,
            unchecked: 5,
            notifications: { total: 2, running: 1, paused: 1, failing: 1 },
          }),
        });
      });

      it('is a 403 for a key without notifications:read, which still gets the counts without it', async () => {
        const key = await createKey(app(), { permissions: ['relayers:read'] });
        expect(await summary(key.key, '?include=notifications')).toEqual({
          status: 403,
          body: errorBody('Forbidden'),
        });
        expect(await summary(key.key)).toEqual({ status: 200, body: successBody(COUNTS) });
      });

      it.each([
        ['another value', '?include=status'],
        ['an empty value', '?include='],
        ['given twice', '?include=notifications&include=notifications'],
      ])('%s is a 400 naming the values', async (_, query) => {
        expect(await summary(app().apiKey, query)).toEqual({
          status: 400,
          body: errorBody('include must be one of: notifications'),
        });
      });
    });
  });
});
