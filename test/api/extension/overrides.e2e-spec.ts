import { Wallet } from 'ethers';
import {
  Catalogue,
  ConfigFileLoader,
  EVM_HEALTH_CHECK,
  SOLANA_HEALTH_CHECK,
  STELLAR_HEALTH_CHECK,
  KeyServices,
  RelayersService,
  UnknownOverrideError,
  WebhookSender,
  addressesOfPublicKey,
  type AttemptResult,
  type ConfigFile,
  type HealthCheck,
  type HealthCheckTarget,
  type HostedSignerConfig,
  type ProviderOverride,
  type SignerAddresses,
} from '../../../src';
import { SecretKey } from '../../../src/catalogue';
import { successBody } from '../../support/envelope';
import { startTestApp, type Env, type TestApp } from '../../support/test-app';
import { KEY1, TEST_NETWORKS } from '../../support/test-catalogue';
import { createTestDatabase, type TestDatabase } from '../../support/test-database';
import { waitFor } from '../../support/wait';
import { ISO, relayerBody, uid, UUID_V4 } from '../../factories';

/** An app of its own database, started with `overrides`; closed after the describe's tests. */
function appWith(overrides: () => ProviderOverride[], env: Env = {}): () => TestApp {
  let database: TestDatabase | undefined;
  let app: TestApp | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startTestApp({ DATABASE_URL: database.url, ...env }, { overrides: overrides() });
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });
  return () => app as TestApp;
}

describe('createApp(config, { overrides }): a replaced provider is the one every module injects', () => {
  const read: string[] = [];
  class ReadCountingRelayers extends RelayersService {
    override getTagged(id: string): ReturnType<RelayersService['getTagged']> {
      read.push(id);
      return super.getTagged(id);
    }
  }
  const app = appWith(() => [{ provide: RelayersService, useClass: ReadCountingRelayers }]);

  it('a replaced RelayersService (a provider of the non-global RelayersModule) is the one its controller uses', async () => {
    const body = relayerBody('evm', { name: 'through the override' });
    const created = (await app().post('/api/v1/relayers', body).expect(201)).body as { data: object };
    const res = await app().get(`/api/v1/relayers/${body.id}`).expect(200);
    expect({ body: res.body as unknown, read }).toEqual({
      body: successBody(created.data),
      read: [body.id],
    });
    expect(app().app.get(RelayersService, { strict: false })).toBeInstanceOf(ReadCountingRelayers);
  });

  it('an override of a token no module provides stops the start, naming it', async () => {
    const database = await createTestDatabase();
    try {
      const NotProvided = class NotProvided {};
      // An app that starts all the same is closed, not left running.
      const outcome = await startTestApp(
        { DATABASE_URL: database.url },
        { overrides: [{ provide: NotProvided, useValue: {} }] },
      ).then(
        (started) => started.close().then(() => 'started'),
        (error: unknown) => error,
      );
      expect(outcome).toEqual(
        new UnknownOverrideError(
          'overrides: no module of the service or its extensions provides NotProvided',
        ),
      );
    } finally {
      await database.drop();
    }
  });
});

describe('replaceable part: KeyServices', () => {
  const wallet = Wallet.createRandom();
  const calls: Array<{ signerId: string; type: string; shown: unknown }> = [];
  const fakeKeyServices: Pick<KeyServices, 'addresses'> = {
    addresses: (signerId: string, config: HostedSignerConfig): Promise<SignerAddresses> => {
      calls.push({ signerId, type: config.type, shown: config.shown });
      return Promise.resolve(addressesOfPublicKey(wallet.signingKey.publicKey));
    },
  };
  // The real key service would be unreachable: nothing listens on port 9.
  const app = appWith(() => [{ provide: KeyServices, useValue: fakeKeyServices }], {
    AWS_ENDPOINT_URL_KMS: 'http://127.0.0.1:9',
    KEY_SERVICE_AMBIENT_CREDENTIALS_IN_API: 'true',
  });

  it('a hosted signer created through the API gets the address of the key the replacement answers', async () => {
    const id = uid('kms');
    const config = { region: 'eu-west-1', key_id: 'alias/replaced' };
    const res = await app().post('/api/v1/signers', { id, type: 'aws_kms', config });
    expect({ status: res.status, body: res.body as unknown, calls }).toEqual({
      status: 201,
      body: successBody({ id, type: 'aws_kms', config, addresses: { evm: wallet.address } }),
      calls: [{ signerId: id, type: 'aws_kms', shown: config }],
    });
  });
});

describe('replaceable part: EVM_HEALTH_CHECK', () => {
  const targets: HealthCheckTarget[] = [];
  const fakeCheck: HealthCheck = {
    check: (target) => {
      targets.push(target);
      return Promise.resolve({
        ok: false,
        reason: 'BalanceCheckFailed',
        details: 'the fake probe found 5 wei',
        balance: 5n,
        nonce: 7n,
      });
    },
  };
  const app = appWith(() => [{ provide: EVM_HEALTH_CHECK, useValue: fakeCheck }], {
    RELAYER_HEALTH_CHECKS: 'true',
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '3600',
    RELAYER_HEALTH_RETRY_SECONDS: '3600',
  });

  it('POST /relayers/{id}/check gives the verdict of the replacement', async () => {
    const body = relayerBody('evm', { name: 'probed by the fake' });
    const created = (await app().post('/api/v1/relayers', body).expect(201)).body.data as { address: string };
    const res = await app().post(`/api/v1/relayers/${body.id}/check`);
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 200,
      body: successBody({
        network_type: 'evm',
        balance: '5',
        nonce: '7',
        paused: false,
        system_disabled: true,
        pending_transactions_count: 0,
        last_confirmed_transaction_timestamp: null,
        low_balance: null,
        checked_at: ISO,
      }),
    });
    const relayer = (await app().get(`/api/v1/relayers/${body.id}`).expect(200)).body.data as Record<
      string,
      unknown
    >;
    expect(relayer.disabled_reason).toEqual({
      type: 'BalanceCheckFailed',
      details: 'the fake probe found 5 wei',
    });
    const sepolia = TEST_NETWORKS.find((n) => n.network === 'sepolia') as { chain_id: number };
    // The check after the create may have run too: every call was given the relayer.
    expect(targets.length).toBeGreaterThanOrEqual(1);
    for (const target of targets) {
      expect({
        relayerId: target.relayerId,
        network: target.network,
        chainId: target.chainId,
        passphrase: target.passphrase,
        address: target.address,
      }).toEqual({
        relayerId: body.id,
        network: 'sepolia',
        chainId: sepolia.chain_id,
        passphrase: null,
        address: created.address,
      });
    }
  });
});

describe('replaceable part: WebhookSender', () => {
  const sent: Array<{ url: string; body: string; headers: Record<string, string> }> = [];
  let closed = 0;
  const fakeSender: Pick<WebhookSender, 'send' | 'close'> = {
    send: (url, body, headers): Promise<AttemptResult> => {
      sent.push({ url, body, headers });
      return Promise.resolve({
        delivered: true,
        retryable: false,
        statusCode: 202,
        error: null,
        durationMs: 1,
      });
    },
    close: () => {
      closed++;
      return Promise.resolve();
    },
  };
  // No such host: only the replacement can deliver.
  const url = 'https://hooks.replaced.invalid/hook';
  const app = appWith(() => [{ provide: WebhookSender, useValue: fakeSender }]);

  it('a notification’s delivery goes through the replacement, and the log says what it answered', async () => {
    const hook = uid('hook');
    await app().post('/api/v1/notifications', { id: hook, url }).expect(201);
    const created = (
      await app()
        .post('/api/v1/relayers', relayerBody('evm', { name: 'hooked', notification_id: hook }))
        .expect(201)
    ).body.data as { id: string };
    await waitFor('a delivery through the fake sender', () => sent.length > 0, { timeoutMs: 10_000 });
    const [delivery] = sent;
    const event = JSON.parse(delivery.body) as { id: string };
    expect({ url: delivery.url, body: event }).toEqual({
      url,
      body: {
        id: UUID_V4,
        event: 'relayer_created',
        payload: { payload_type: 'relayer_created', relayer: created },
        timestamp: ISO,
      },
    });
    const log = await waitFor(
      'the delivery logged as delivered',
      async () => {
        const res = await app().get(`/api/v1/notifications/${hook}/deliveries`).expect(200);
        const data = (res.body as { data: Array<{ status: string }> }).data;
        return data.length === 1 && data[0].status === 'delivered' && data;
      },
      { timeoutMs: 10_000 },
    );
    expect({ log, sent: sent.length, closed }).toEqual({
      log: [
        {
          id: UUID_V4,
          event_id: event.id,
          event: 'relayer_created',
          relayer_id: created.id,
          status: 'delivered',
          attempts: 1,
          last_status_code: 202,
          last_error: null,
          next_attempt_at: null,
          created_at: ISO,
          delivered_at: ISO,
        },
      ],
      sent: 1,
      closed: 0,
    });
  });
});

describe('replaceable part: ConfigFileLoader', () => {
  const loaded: string[] = [];
  const fakeLoader: Pick<ConfigFileLoader, 'load'> = {
    load: (config): Promise<ConfigFile> => {
      loaded.push(config.configFile ?? '');
      return Promise.resolve({
        file: 'replaced-loader.json',
        catalogue: new Catalogue({
          networks: [
            {
              type: 'evm',
              network: 'replaced-net',
              chain_id: 424242,
              rpc_urls: [{ url: 'https://rpc.replaced.invalid/', weight: 100 }],
              is_testnet: true,
            },
          ],
          signers: [
            { id: 'replaced-signer', type: 'plain', key: new SecretKey(Buffer.from(KEY1.hex, 'hex')) },
          ],
        }),
        relayers: [
          {
            id: 'from-the-loader',
            body: {
              id: 'from-the-loader',
              name: 'loaded',
              network: 'replaced-net',
              network_type: 'evm',
              signer_id: 'replaced-signer',
              paused: false,
            },
          },
        ],
        notifications: [],
        plugins: null,
      });
    },
  };
  const app = appWith(() => [{ provide: ConfigFileLoader, useValue: fakeLoader }]);

  it('the networks, signers and relayers the app serves come from the replacement', async () => {
    const networks = (await app().get('/api/v1/networks').expect(200)).body as {
      data: Array<{ id: string }>;
    };
    const signer = await app().get('/api/v1/signers/replaced-signer').expect(200);
    const relayers = (await app().get('/api/v1/relayers').expect(200)).body as {
      data: Array<Record<string, unknown>>;
    };
    expect({
      loaded: loaded.length,
      networks: networks.data.map((n) => n.id),
      signer: (signer.body as { data: { addresses: unknown } }).data.addresses,
      relayers: relayers.data.map((r) => [r.id, r.network, r.address]),
    }).toEqual({
      loaded: 1,
      networks: ['evm:replaced-net'],
      signer: { evm: KEY1.evm, solana: KEY1.solana, stellar: KEY1.stellar },
      relayers: [['from-the-loader', 'replaced-net', KEY1.evm]],
    });
  });
});

describe('replaceable parts: SOLANA_HEALTH_CHECK and STELLAR_HEALTH_CHECK', () => {
  const probed: Array<[string, string, string | null]> = [];
  const solanaCheck: HealthCheck = {
    check: (target) => {
      probed.push(['solana', target.relayerId, target.passphrase]);
      return Promise.resolve({ ok: true, balance: 1_000_000n });
    },
  };
  const stellarCheck: HealthCheck = {
    check: (target) => {
      probed.push(['stellar', target.relayerId, target.passphrase]);
      return Promise.resolve({
        ok: false,
        reason: 'SequenceSyncFailed',
        details: 'the fake Stellar probe found no account',
      });
    },
  };
  const app = appWith(
    () => [
      { provide: SOLANA_HEALTH_CHECK, useValue: solanaCheck },
      { provide: STELLAR_HEALTH_CHECK, useValue: stellarCheck },
    ],
    {
      RELAYER_HEALTH_CHECKS: 'true',
      RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '3600',
      RELAYER_HEALTH_RETRY_SECONDS: '3600',
    },
  );

  it('POST /relayers/{id}/check of a Solana and of a Stellar relayer gives the verdicts of the replacements', async () => {
    const solana = relayerBody('solana', { name: 'solana, probed by the fake' });
    const stellar = relayerBody('stellar', { name: 'stellar, probed by the fake' });
    await app().post('/api/v1/relayers', solana).expect(201);
    await app().post('/api/v1/relayers', stellar).expect(201);
    const solanaCheck = await app().post(`/api/v1/relayers/${solana.id}/check`);
    const stellarCheck = await app().post(`/api/v1/relayers/${stellar.id}/check`);
    expect({ status: solanaCheck.status, body: solanaCheck.body as unknown }).toEqual({
      status: 200,
      body: successBody({
        network_type: 'solana',
        balance: '1000000',
        paused: false,
        system_disabled: false,
        pending_transactions_count: 0,
        last_confirmed_transaction_timestamp: null,
        low_balance: null,
        checked_at: ISO,
      }),
    });
    expect({ status: stellarCheck.status, body: stellarCheck.body as unknown }).toEqual({
      status: 200,
      body: successBody({
        network_type: 'stellar',
        balance: '0',
        sequence_number: '0',
        paused: false,
        system_disabled: true,
        pending_transactions_count: 0,
        last_confirmed_transaction_timestamp: null,
        low_balance: null,
        checked_at: ISO,
      }),
    });
    const reasons = await Promise.all(
      [solana.id, stellar.id].map(
        async (id) =>
          ((await app().get(`/api/v1/relayers/${id}`).expect(200)).body.data as Record<string, unknown>)
            .disabled_reason,
      ),
    );
    expect(reasons).toEqual([
      null,
      { type: 'SequenceSyncFailed', details: 'the fake Stellar probe found no account' },
    ]);
    const stellarNetwork = TEST_NETWORKS.find((n) => n.network === stellar.network) as { passphrase: string };
    expect(new Set(probed.map((p) => JSON.stringify(p)))).toEqual(
      new Set([
        JSON.stringify(['solana', solana.id, null]),
        JSON.stringify(['stellar', stellar.id, stellarNetwork.passphrase]),
      ]),
    );
  });
});
