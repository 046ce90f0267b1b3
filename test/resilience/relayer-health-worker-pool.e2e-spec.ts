import { getDataSourceToken } from '@nestjs/typeorm';
import mysql from 'mysql2/promise';
import type { DataSource, QueryRunner } from 'typeorm';
import { Anvil } from '../support/anvil';
import { CountingProxy, writeProxiedAnvilCatalogue } from '../support/counting-rpc-proxy';
import { useTestApp } from '../support/test-app';
import { TEST_DB } from '../support/test-database';
import { waitFor } from '../support/wait';
import { anonymousRelayerBody } from '../factories';

const describeMysql = TEST_DB === 'mysql' ? describe : describe.skip;
/** The MySQL pool of the service (src/database/data-source-options.ts, poolSize). */
const POOL_CONNECTIONS = 10;
const RELAYERS = 5;

describeMysql(
  'health-check rounds on connections of their own (docs/reference/relayer-health.md#27-off-the-apis-path)',
  () => {
    const anvil = new Anvil();
    let proxy: CountingProxy;
    let file = '';
    beforeAll(async () => {
      await anvil.start();
      proxy = await new CountingProxy(anvil.url).start();
      file = writeProxiedAnvilCatalogue(
        proxy,
        Array.from({ length: RELAYERS }, (_, i) => `own-${i}`),
      );
    });
    afterAll(async () => {
      await proxy?.close();
      await anvil.stop();
    });
    // Interval and retry of an hour: only the creates and the UPDATE below start checks.
    const handle = useTestApp(() => ({
      CONFIG_FILE: file,
      RELAYER_HEALTH_CHECKS: 'true',
      RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '3600',
      RELAYER_HEALTH_RETRY_SECONDS: '3600',
    }));
    const app = () => handle.current;

    it("with every connection of the API's pool taken, a round in which nothing changed still completes", async () => {
      for (let i = 0; i < RELAYERS; i++) {
        await app()
          .post(
            '/api/v1/relayers',
            anonymousRelayerBody('evm', { name: `own ${i}`, network: 'anvil', signer_id: `own-${i}` }),
          )
          .expect(201);
      }
      // Read beside the service: its own pool is about to be taken.
      const reader = await mysql.createConnection({ uri: handle.database.url });
      const checked = async (): Promise<number> => {
        const [rows] = await reader.query<mysql.RowDataPacket[]>(
          'SELECT COUNT(*) AS n FROM relayer_checks WHERE checked_at IS NOT NULL',
        );
        return Number(rows[0].n);
      };
      const held: QueryRunner[] = [];
      try {
        await waitFor('the first check of every relayer', async () => (await checked()) === RELAYERS, {
          timeoutMs: 20_000,
        });
        // Every connection of the API's pool, taken and held.
        const dataSource = app().app.get<DataSource>(getDataSourceToken());
        for (let i = 0; i < POOL_CONNECTIONS; i++) {
          const runner = dataSource.createQueryRunner();
          await runner.connect();
          held.push(runner);
        }
        const checksBefore = [...proxy.checks.values()].reduce((sum, n) => sum + n, 0);
        await reader.query(
          "UPDATE relayer_checks SET next_check_at = '2000-01-01 00:00:00.000', checked_at = NULL, lease_owner = NULL, lease_until = NULL",
        );
        await waitFor('the round, with the API pool taken', async () => (await checked()) === RELAYERS, {
          timeoutMs: 10_000,
          detail: () => `${[...proxy.checks.values()].reduce((sum, n) => sum + n, 0) - checksBefore} calls`,
        });
        expect({
          checked: await checked(),
          heldConnections: held.length,
          calls: [...proxy.checks.values()].reduce((sum, n) => sum + n, 0) - checksBefore,
        }).toEqual({ checked: RELAYERS, heldConnections: POOL_CONNECTIONS, calls: RELAYERS });
      } finally {
        for (const runner of held) await runner.release();
        await reader.end();
      }
    });
  },
);
