import { randomBytes } from 'node:crypto';
import { EvmRpc } from '../support/evm-rpc';
import { secrets } from '../support/secrets';
import { startTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';
import { fileSigner, relayerBody, setBalanceAlert, uid } from '../factories';
import { writeConfigFile } from '../support/test-catalogue';

const describeMysql = TEST_DB === 'mysql' ? describe : describe.skip;
const INSTANCES = 3;
const CROSSINGS = 3;

describeMysql(
  `${INSTANCES} instances on one MySQL database announce each balance crossing once (docs/reference/balance-alerts.md)`,
  () => {
    const node = new EvmRpc();
    const receiver = new WebhookReceiver();
    let database: TestDatabase;
    const apps: TestApp[] = [];

    beforeAll(async () => {
      await Promise.all([node.start(), receiver.start()]);
      database = await createTestDatabase({ kind: 'mysql' });
      const file = writeConfigFile({
        networks: [{ type: 'evm', network: 'fake', chain_id: node.chainId, rpc_urls: [node.url('/')] }],
        signers: [fileSigner('alerted')],
      });
      const apiKey = secrets.add(randomBytes(32).toString('hex'));
      for (let i = 0; i < INSTANCES; i++) {
        apps.push(
          await startTestApp({
            DATABASE_URL: database.url,
            API_KEY: apiKey,
            CONFIG_FILE: file,
            RELAYER_HEALTH_CHECKS: 'true',
            // Every instance's scheduler runs a round each second, beside the checks asked for below.
            RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '1',
            RELAYER_HEALTH_RETRY_SECONDS: '1',
            RPC_TIMEOUT_MS: '2000',
            WEBHOOK_RETRY_BASE_MS: '50',
          }),
        );
      }
    });
    afterAll(async () => {
      for (const app of apps) await app.close();
      await Promise.all([node.close(), receiver.close()]);
      await database?.drop();
    });

    it(`${CROSSINGS} crossings down and up, each checked by every instance at once and by their rounds: one event each`, async () => {
      const [a, b] = apps;
      const hook = uid('hook');
      await a.post('/api/v1/notifications', { id: hook, url: receiver.url('/alerts') }).expect(201);
      await setBalanceAlert(b, 'networks/evm:fake', '1000');
      const created = await a
        .post(
          '/api/v1/relayers',
          relayerBody('evm', { network: 'fake', signer_id: 'alerted', notification_id: hook }),
        )
        .expect(201);
      const relayer = created.body.data as { id: string; address: string };
      node.setBalance(relayer.address, 5000n);

      const expected: Array<{ event: string; balance: string }> = [];
      for (let crossing = 0; crossing < CROSSINGS; crossing++) {
        for (const [balance, event] of [
          [10n + BigInt(crossing), 'relayer_low_balance'],
          [5000n + BigInt(crossing), 'relayer_balance_restored'],
        ] as const) {
          node.setBalance(relayer.address, balance);
          expected.push({ event, balance: String(balance) });
          // Every instance checks at once, twice, while the rounds go on.
          for (let i = 0; i < 2; i++) {
            const answers = await Promise.all(
              apps.map((app) => app.post(`/api/v1/relayers/${relayer.id}/check`)),
            );
            expect(
              answers.map((res) => [res.status, (res.body as { data: { balance: string } }).data.balance]),
            ).toEqual(apps.map(() => [200, String(balance)]));
          }
          const reads = node.balanceReads(relayer.address);
          // At least two rounds more (of any instance) with the same balance.
          await waitFor('two more rounds', () => node.balanceReads(relayer.address) >= reads + 2, {
            timeoutMs: 15_000,
          });
        }
      }
      const events = () =>
        receiver
          .to('/alerts')
          .filter(
            (r) => r.json.event === 'relayer_low_balance' || r.json.event === 'relayer_balance_restored',
          )
          .map((r) => ({ event: r.json.event, balance: r.json.payload.balance as string }));
      await waitFor(`${expected.length} balance events`, () => events().length >= expected.length, {
        timeoutMs: 15_000,
      });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const ids = receiver.to('/alerts').map((r) => r.json.id);
      expect({ events: events(), distinctIds: new Set(ids).size === ids.length }).toEqual({
        events: expected,
        distinctIds: true,
      });
      process.stdout.write(
        `balance crossings (${INSTANCES} instances): ${node.balanceReads(relayer.address)} checks, ${events().length} events\n`,
      );
    });
  },
);
