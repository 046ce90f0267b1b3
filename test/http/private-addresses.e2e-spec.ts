import type { LookupAddress } from 'node:dns';
import { DnsResolver } from '../../src/common/security/dns-resolver';
import { expectError, successBody } from '../support/envelope';
import { JsonRpcServer } from '../support/json-rpc-server';
import { useTestApp, type Env } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { fileSigners, relayerBody } from '../factories';
import { writeConfigFile } from '../support/test-catalogue';

/**
 * docs/reference/hardening.md "Private addresses in production": with NODE_ENV=production and nothing set, private
 * webhook and RPC URLs are refused, the 400 names the field and the variable that allows them, and
 * the routes that call out (test, check) refuse before connecting, so they report nothing of a
 * private host. An explicit false allows them again.
 */
const CHAIN_ID = 1337;
const rpc = new JsonRpcServer({ eth_chainId: () => ({ result: `0x${CHAIN_ID.toString(16)}` }) });
const receiver = new WebhookReceiver();
let catalogueFile = '';

// Before the apps start (useTestApp's own beforeAll): the catalogue names the local RPC server.
beforeAll(async () => {
  await rpc.start();
  await receiver.start();
  catalogueFile = writeConfigFile({
    networks: [{ type: 'evm', network: 'local', chain_id: CHAIN_ID, rpc_urls: [rpc.url()] }],
    signers: fileSigners('local', 3),
  });
});
afterAll(async () => {
  await rpc.close();
  await receiver.close();
});

const productionEnv =
  (extra: Env = {}) =>
  (): Env => ({
    NODE_ENV: 'production',
    CONFIG_FILE: catalogueFile,
    RELAYER_HEALTH_CHECKS: 'true',
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '3600',
    RELAYER_HEALTH_RETRY_SECONDS: '3600',
    RPC_TIMEOUT_MS: '1000',
    ...extra,
  });

/** Makes every host name resolve to loopback, as a rebinding name would. */
const resolveToLoopback = () =>
  jest
    .spyOn(DnsResolver.prototype, 'lookup')
    .mockImplementation((_hostname: string, callback: (error: null, addresses: LookupAddress[]) => void) =>
      callback(null, [{ address: '127.0.0.1', family: 4 }]),
    );

const WEBHOOK_REFUSAL =
  'points to a private or loopback address (set WEBHOOK_BLOCK_PRIVATE_IPS=false to allow private addresses)';
const RPC_REFUSAL =
  'points to a private or loopback address (set RPC_BLOCK_PRIVATE_IPS=false to allow private addresses)';

describe('NODE_ENV=production with nothing set: private addresses refused, naming the variable', () => {
  const handle = useTestApp(productionEnv());
  const app = () => handle.current;

  it('a webhook url: 400 naming url and WEBHOOK_BLOCK_PRIVATE_IPS, on create and on PATCH', async () => {
    expectError(
      await app().post('/api/v1/notifications', { url: receiver.url('/private') }),
      400,
      `url ${WEBHOOK_REFUSAL}`,
    );
    await app()
      .post('/api/v1/notifications', { id: 'public-hook', url: 'https://hooks.example.com/x' })
      .expect(201);
    expectError(
      await app().patch('/api/v1/notifications/public-hook', { url: 'http://10.1.2.3/hook' }),
      400,
      `url ${WEBHOOK_REFUSAL}`,
    );
  });

  it('a relayer custom_rpc_urls entry: 400 naming the entry and RPC_BLOCK_PRIVATE_IPS', async () => {
    expectError(
      await app().post(
        '/api/v1/relayers',
        relayerBody('evm', {
          id: 'private-rpc',
          name: 'private',
          network: 'local',
          signer_id: 'local-0',
          custom_rpc_urls: [{ url: 'https://rpc.example.com/a' }, { url: 'http://192.168.1.20:8545' }],
        }),
      ),
      400,
      `custom_rpc_urls[1].url ${RPC_REFUSAL}`,
    );
  });

  it('a network rpc_urls PATCH: 400 naming the entry and RPC_BLOCK_PRIVATE_IPS, nothing changed', async () => {
    const before = (await app().get('/api/v1/networks/evm:local').expect(200)).body as unknown;
    expectError(
      await app().patch('/api/v1/networks/evm:local', { rpc_urls: ['http://127.0.0.1:8545'] }),
      400,
      `rpc_urls[0].url ${RPC_REFUSAL}`,
    );
    expect((await app().get('/api/v1/networks/evm:local').expect(200)).body).toEqual(before);
  });

  it('POST .../test to a name that resolves to a private address: refused before connecting', async () => {
    await app()
      .post('/api/v1/notifications', {
        id: 'rebound-hook',
        url: `http://hooks.rebind.example:${receiver.port}/t`,
      })
      .expect(201);
    const lookup = resolveToLoopback();
    try {
      const tried = await app().post('/api/v1/notifications/rebound-hook/test').expect(200);
      expect(tried.body).toEqual(
        successBody({
          delivered: false,
          status_code: null,
          error: `hooks.rebind.example resolves to an address that ${WEBHOOK_REFUSAL}`,
          duration_ms: expect.any(Number) as unknown,
        }),
      );
    } finally {
      lookup.mockRestore();
    }
    expect(receiver.to('/t')).toEqual([]);
  });

  it('POST .../check of a relayer on a network with a private RPC node: refused before connecting', async () => {
    rpc.resetCallCounts();
    await app()
      .post(
        '/api/v1/relayers',
        relayerBody('evm', { id: 'on-local', name: 'local', network: 'local', signer_id: 'local-1' }),
      )
      .expect(201);
    await app().post('/api/v1/relayers/on-local/check').expect(200);
    const relayer = (await app().get('/api/v1/relayers/on-local').expect(200)).body.data as {
      disabled_reason: unknown;
    };
    expect(relayer.disabled_reason).toEqual({
      type: 'RpcValidationFailed',
      details: `no RPC endpoint answered with the right chain: 127.0.0.1:${rpc.port}: refused by the URL policy (${RPC_REFUSAL})`,
    });
    expect(rpc.callCount('eth_chainId')).toBe(0);
  });
});

describe('NODE_ENV=production with RPC_ and WEBHOOK_BLOCK_PRIVATE_IPS=false: private addresses allowed', () => {
  const handle = useTestApp(
    productionEnv({ RPC_BLOCK_PRIVATE_IPS: 'false', WEBHOOK_BLOCK_PRIVATE_IPS: 'false' }),
  );
  const app = () => handle.current;

  it('accepts the private webhook url, custom RPC URL and network RPC URL', async () => {
    await app()
      .post('/api/v1/notifications', { id: 'private-hook', url: receiver.url('/allowed') })
      .expect(201);
    await app()
      .post(
        '/api/v1/relayers',
        relayerBody('evm', {
          id: 'private-rpc',
          name: 'private',
          network: 'local',
          signer_id: 'local-0',
          custom_rpc_urls: [{ url: 'http://192.168.1.20:8545' }],
        }),
      )
      .expect(201);
    await app()
      .patch('/api/v1/networks/evm:local', { rpc_urls: [rpc.url()] })
      .expect(200);
  });

  it('POST .../test reaches the private receiver, and POST .../check the private RPC node', async () => {
    const tried = await app().post('/api/v1/notifications/private-hook/test').expect(200);
    expect([tried.body.data.delivered, tried.body.data.status_code]).toEqual([true, 200]);
    expect(receiver.to('/allowed')).toHaveLength(1);
    rpc.resetCallCounts();
    await app()
      .post(
        '/api/v1/relayers',
        relayerBody('evm', { id: 'on-local', name: 'local', network: 'local', signer_id: 'local-2' }),
      )
      .expect(201);
    await app().post('/api/v1/relayers/on-local/check').expect(200);
    expect(rpc.callCount('eth_chainId')).toBeGreaterThan(0);
  });
});
