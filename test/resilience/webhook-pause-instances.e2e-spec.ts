import { randomBytes } from 'node:crypto';
import { secrets } from '../support/secrets';
import { ServiceProcess, startReadyService } from '../support/service-process';
import { writeTestCatalogue } from '../support/test-catalogue';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';
import { relayerBody, uid } from '../factories';

const PAUSE_AFTER = 3;
const EVENTS = 12;
const describeMysql = TEST_DB === 'mysql' ? describe : describe.skip;
const nameOf = (r: ReceivedWebhook) => String((r.json.payload.relayer as { name?: unknown }).name);

describeMysql(
  'three instances on one MySQL: a failing target pauses itself once (docs/reference/webhooks.md#10-pausing-a-target)',
  () => {
    let database: TestDatabase;
    const instances: ServiceProcess[] = [];
    const receiver = new WebhookReceiver();
    const catalogue = writeTestCatalogue(4);
    const apiKey = secrets.add(randomBytes(32).toString('hex'));

    beforeAll(async () => {
      database = await createTestDatabase({ kind: 'mysql' });
      await receiver.start();
      // One at a time: the first applies the migrations.
      for (let i = 0; i < 3; i++) {
        instances.push(
          await startReadyService({
            API_KEY: apiKey,
            NODE_ENV: 'production',
            DATABASE_URL: database.url,
            CONFIG_FILE: catalogue.file,
            // The receiver listens on loopback, which production refuses by default (docs/reference/hardening.md).
            WEBHOOK_BLOCK_PRIVATE_IPS: 'false',
            WEBHOOK_MAX_ATTEMPTS: '1',
            WEBHOOK_PAUSE_AFTER_FAILURES: String(PAUSE_AFTER),
            RATE_LIMIT_REQUESTS_PER_SECOND: '1000',
            RATE_LIMIT_BURST_SIZE: '1000',
            RELAYER_HEALTH_CHECKS: 'false',
            LOG_LEVEL: 'warn',
          }),
        );
      }
    });
    afterAll(async () => {
      await Promise.all(instances.map((i) => i.stop()));
      await receiver.close();
      await database?.drop();
    });

    const call = async (service: ServiceProcess, method: string, path: string, body?: object) => {
      const res = await service.call(method, path, body);
      return { status: res.status, body: (await res.json()) as { data: unknown } };
    };

    it(`${PAUSE_AFTER} failures in a row pause it once, whichever instance sends; the backlog goes out in order after resume`, async () => {
      const [a, b, c] = instances;
      const hook = uid('hook');
      const relayer = uid('paused');
      receiver.script(
        '/down',
        Array.from({ length: PAUSE_AFTER }, () => ({ status: 410 })),
      );
      expect(
        (await call(a, 'POST', '/api/v1/notifications', { id: hook, url: receiver.url('/down') })).status,
      ).toBe(201);
      const created = await call(
        a,
        'POST',
        '/api/v1/relayers',
        relayerBody('evm', {
          id: relayer,
          name: 'r0',
          signer_id: catalogue.nextSigner(),
          notification_id: hook,
        }),
      );
      expect(created.status).toBe(201);
      for (let i = 1; i < EVENTS; i++) {
        const res = await call(instances[i % 3], 'PATCH', `/api/v1/relayers/${relayer}`, { name: `r${i}` });
        expect(res.status).toBe(200);
      }
      const state = async (service: ServiceProcess) =>
        (await call(service, 'GET', `/api/v1/notifications/${hook}/state`)).body.data as { paused: boolean };
      await waitFor('the target paused', async () => (await state(b)).paused, { timeoutMs: 20_000 });
      // Every instance keeps polling: give them rounds to (wrongly) send more.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(receiver.to('/down').map(nameOf)).toEqual(['r0', 'r1', 'r2']);
      expect(await state(c)).toEqual({
        paused: true,
        paused_reason: `${PAUSE_AFTER} deliveries in a row failed; the last: HTTP 410`,
        paused_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        signing_key_overlap_until: null,
      });
      const audit = async () =>
        (
          (
            await call(
              c,
              'GET',
              `/api/v1/audit?resource_type=notification&resource_id=${hook}&action=notification.update`,
            )
          ).body.data as Array<{ actor: object; after: { paused: boolean } }>
        ).map((r) => ({ actor: r.actor, paused: r.after.paused }));
      expect(await audit()).toEqual([
        { actor: { type: 'system', id: 'system', name: 'service' }, paused: true },
      ]);

      expect((await call(a, 'POST', `/api/v1/notifications/${hook}/resume`)).status).toBe(200);
      await receiver.waitFor('/down', EVENTS, 20_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.to('/down').map(nameOf)).toEqual(Array.from({ length: EVENTS }, (_, i) => `r${i}`));
      expect(await audit()).toEqual([
        { actor: { type: 'admin', id: 'admin', name: 'API_KEY' }, paused: false },
        { actor: { type: 'system', id: 'system', name: 'service' }, paused: true },
      ]);
    });
  },
);
