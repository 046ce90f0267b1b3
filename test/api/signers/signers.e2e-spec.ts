import { randomBytes } from 'node:crypto';
import { expectError, successBody } from '../../support/envelope';
import { secrets } from '../../support/secrets';
import { defaultCatalogue, startTestApp, useTestApp, type TestApp } from '../../support/test-app';
import { KEY1 } from '../../support/test-catalogue';
import { createTestDatabase, type TestDatabase } from '../../support/test-database';
import { relayerBody as factoryRelayerBody, signerKey, uid, UUID } from '../../factories';

const EVM = /^0x[0-9a-fA-F]{40}$/;
const SOLANA = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const STELLAR = /^G[A-Z2-7]{55}$/;
const anyAddresses = {
  evm: expect.stringMatching(EVM) as unknown as string,
  solana: expect.stringMatching(SOLANA) as unknown as string,
  stellar: expect.stringMatching(STELLAR) as unknown as string,
};
const KEY1_ADDRESSES = { evm: KEY1.evm, solana: KEY1.solana, stellar: KEY1.stellar };

/** A fresh random key, registered as a secret: it must appear in no response, log or database byte. */

const relayerBody = (signerId: string, network = 'sepolia') =>
  factoryRelayerBody('evm', { name: 'signer user', network, signer_id: signerId });

describe('signers through the API (docs/reference/networks-and-signers.md#3-signers)', () => {
  const handle = useTestApp();
  const app = () => handle.current;

  const createSigner = async (id: string, key = signerKey()) => {
    const res = await app().post('/api/v1/signers', { id, type: 'plain', config: { key } });
    expect(res.status).toBe(201);
    return res.body as { data: { addresses: Record<string, string> } };
  };

  it('lists the file signers first, as local with an empty config and their addresses', async () => {
    const res = await app().get('/api/v1/signers?per_page=2').expect(200);
    expect(res.body).toEqual({
      success: true,
      error: null,
      pagination: { current_page: 1, per_page: 2, total_items: 257 },
      data: [
        { id: KEY1.id, type: 'local', config: {}, addresses: KEY1_ADDRESSES },
        { id: 'pool-0000', type: 'local', config: {}, addresses: anyAddresses },
      ],
    });
    expect(secrets.foundIn(res.text)).toEqual([]);
  });

  it('creates a plain signer: 201 with the addresses its key has, then get and list show it', async () => {
    const id = uid('api');
    const res = await app().post('/api/v1/signers', { id, type: 'plain', config: { key: `0x${KEY1.hex}` } });
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 201,
      body: successBody({ id, type: 'local', config: {}, addresses: KEY1_ADDRESSES }),
    });
    expect((await app().get(`/api/v1/signers/${id}`).expect(200)).body).toEqual(
      successBody({ id, type: 'local', config: {}, addresses: KEY1_ADDRESSES }),
    );
    // The file's 257 come first; the page after them holds the signers created here.
    const page = await app().get('/api/v1/signers?page=257&per_page=1').expect(200);
    expect(page.body.pagination).toEqual({ current_page: 257, per_page: 1, total_items: 258 });
    expect(page.body.data).toEqual([{ id: 'pool-0255', type: 'local', config: {}, addresses: anyAddresses }]);
    const last = await app().get('/api/v1/signers?page=258&per_page=1').expect(200);
    expect(last.body.data).toEqual([{ id, type: 'local', config: {}, addresses: KEY1_ADDRESSES }]);
  });

  it('generates a UUID when no id is given', async () => {
    const res = await app()
      .post('/api/v1/signers', { type: 'plain', config: { key: signerKey() } })
      .expect(201);
    expect(res.body.data).toEqual({
      id: UUID,
      type: 'local',
      config: {},
      addresses: anyAddresses,
    });
  });

  it.each([
    ['a short key', { key: 'abcd' }, 'config.key must be 32 bytes as 64 hex characters (0x allowed)'],
    [
      'a non-hex key',
      { key: 'z'.repeat(64) },
      'config.key must be 32 bytes as 64 hex characters (0x allowed)',
    ],
    ['a numeric key', { key: 1 }, 'config.key must be 32 bytes as 64 hex characters (0x allowed)'],
    ['no key', {}, 'config.key must be 32 bytes as 64 hex characters (0x allowed)'],
    [
      'an all-zero key',
      { key: '0'.repeat(64) },
      'config.key must be a valid secp256k1 private key: not zero and below the curve order',
    ],
    [
      'a key above the curve order',
      { key: 'f'.repeat(64) },
      'config.key must be a valid secp256k1 private key: not zero and below the curve order',
    ],
    [
      'an unknown config field',
      { key: KEY1.hex, path: '/etc/keystore.json' },
      'config.path is not an allowed field',
    ],
  ])('refuses %s with a 400 naming config.key (never quoting it)', async (_name, config, message) => {
    expectError(await app().post('/api/v1/signers', { id: uid('bad'), type: 'plain', config }), 400, message);
  });

  // The reference system's hosted types are created since issue 27 (hosted-signers.e2e-spec.ts).
  it.each(['local', 'hsm'])("refuses type '%s' as not supported", async (type) => {
    expectError(
      await app().post('/api/v1/signers', { id: uid('kms'), type, config: { key_id: 'x' } }),
      400,
      `Signer type '${type}' is not supported`,
    );
  });

  it('names every problem of a body at once, and unknown fields', async () => {
    expectError(
      await app().post('/api/v1/signers', { id: 'bad id!', type: 'plain', config: { key: 'no' }, extra: 1 }),
      400,
      [
        'config.key must be 32 bytes as 64 hex characters (0x allowed)',
        'extra is not an allowed field',
        "id must be 1 to 36 characters of letters, digits, '-' or '_'",
      ].join('; '),
    );
    expectError(
      await app().post('/api/v1/signers', { type: 7, config: 'key' }),
      400,
      'config must be an object: {"key": "<64 hex characters>"}; type must be \'plain\'',
    );
  });

  it('refuses a duplicate id, of a signer created here or of one in the file', async () => {
    const id = uid('dup');
    await createSigner(id);
    expectError(
      await app().post('/api/v1/signers', { id, type: 'plain', config: { key: signerKey() } }),
      409,
      'Signer with this ID already exists',
    );
    expectError(
      await app().post('/api/v1/signers', { id: 'pool-0003', type: 'plain', config: { key: signerKey() } }),
      409,
      'Signer with this ID already exists',
    );
  });

  it('refuses every update: a key never changes under a relayer', async () => {
    const id = uid('fixed');
    await createSigner(id);
    for (const target of [id, KEY1.id]) {
      expectError(
        await app().patch(`/api/v1/signers/${target}`, { config: { key: signerKey() } }),
        400,
        'Signer updates are not allowed: delete the signer and create a new one',
      );
    }
  });

  it('answers 404 for an unknown signer on get and delete', async () => {
    expectError(await app().get('/api/v1/signers/nobody'), 404, 'Signer with ID nobody not found');
    expectError(await app().delete('/api/v1/signers/nobody'), 404, 'Signer with ID nobody not found');
    expectError(await app().get('/api/v1/signers/no%20such'), 404, 'Signer with ID no such not found');
  });

  it('a signer created here serves relayers; while one uses it, it cannot be deleted', async () => {
    const id = uid('used');
    const { data } = await createSigner(id);
    const first = relayerBody(id);
    const second = relayerBody(id, 'mainnet');
    const created = await app().post('/api/v1/relayers', first).expect(201);
    expect(created.body.data.address).toBe(data.addresses.evm);
    await app().post('/api/v1/relayers', second).expect(201);
    const names = [first.id, second.id].sort().join(', ');
    expectError(
      await app().delete(`/api/v1/signers/${id}`),
      409,
      `Signer ${id} is used by relayers: ${names}`,
    );
    await app()
      .delete(`/api/v1/relayers/${String(first.id)}`)
      .expect(200);
    await app()
      .delete(`/api/v1/relayers/${String(second.id)}`)
      .expect(200);
    expect((await app().delete(`/api/v1/signers/${id}`)).body).toEqual(
      successBody('Signer deleted successfully'),
    );
    expectError(await app().get(`/api/v1/signers/${id}`), 404, `Signer with ID ${id} not found`);
    expectError(await app().post('/api/v1/relayers', relayerBody(id)), 400, `Signer with ID ${id} not found`);
  });

  it('refuses to delete a signer of the configuration file', async () => {
    expectError(
      await app().delete(`/api/v1/signers/${KEY1.id}`),
      409,
      `Signer ${KEY1.id} is defined in the configuration file`,
    );
    await app().get(`/api/v1/signers/${KEY1.id}`).expect(200);
  });

  it('a delete racing a relayer create: either the relayer exists with its signer, or neither', async () => {
    for (let round = 0; round < 6; round++) {
      const id = uid('race');
      await createSigner(id);
      const body = relayerBody(id);
      const [create, remove] = await Promise.all([
        app().post('/api/v1/relayers', body),
        app().delete(`/api/v1/signers/${id}`),
      ]);
      const outcome = [create.status, remove.status];
      if (outcome[0] === 201) {
        expect(remove.status).toBe(409);
        await app().get(`/api/v1/signers/${id}`).expect(200);
        await app()
          .delete(`/api/v1/relayers/${String(body.id)}`)
          .expect(200);
      } else {
        expect(outcome).toEqual([400, 200]);
        expectError(create, 400, `Signer with ID ${id} not found`);
        expectError(
          await app().get(`/api/v1/relayers/${String(body.id)}`),
          404,
          `Relayer with ID ${String(body.id)} not found`,
        );
      }
    }
  });

  it('keeps the key only encrypted: the database holds the row, not the key in any spelling', async () => {
    const id = uid('sealed');
    const key = signerKey();
    await createSigner(id, `0x${key.toUpperCase()}`);
    const dump = await handle.database.dump();
    expect(dump).toContain(id); // the control: the row is there
    expect(dump).toContain('enc:v1:');
    expect([dump.includes(key), dump.toLowerCase().includes(key)]).toEqual([false, false]);
    expect(dump.includes(Buffer.from(key, 'hex').toString('base64'))).toBe(false);
  });
});

describe('signers in production without STORAGE_ENCRYPTION_KEY', () => {
  let database: TestDatabase;
  let app: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startTestApp({
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      CONFIG_FILE: defaultCatalogue().file,
      STORAGE_ENCRYPTION_KEY: undefined,
    });
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
    expect(secrets.foundIn(app.logText())).toEqual([]);
  });

  it('answers 503 naming the variable, and lists and reads signers as usual', async () => {
    expectError(
      await app.post('/api/v1/signers', { id: 'prod', type: 'plain', config: { key: signerKey() } }),
      503,
      'Service Unavailable: STORAGE_ENCRYPTION_KEY is not set, so signer keys cannot be stored',
    );
    expect((await app.get('/api/v1/signers?per_page=1').expect(200)).body.pagination).toEqual({
      current_page: 1,
      per_page: 1,
      total_items: 257,
    });
  });
});

describe('signers on two instances of one database', () => {
  let database: TestDatabase;
  let apps: TestApp[] = [];
  const apiKey = secrets.add(randomBytes(24).toString('hex'));
  beforeAll(async () => {
    database = await createTestDatabase();
    const storageKey = secrets.add(randomBytes(32).toString('base64'));
    apps = [
      await startTestApp({ DATABASE_URL: database.url, API_KEY: apiKey, STORAGE_ENCRYPTION_KEY: storageKey }),
      await startTestApp({ DATABASE_URL: database.url, API_KEY: apiKey, STORAGE_ENCRYPTION_KEY: storageKey }),
    ];
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await database.drop();
    for (const a of apps) expect(secrets.foundIn(a.logText())).toEqual([]);
  });

  it('a signer created on one is usable for a relayer create on the other at once, and deleted for both', async () => {
    const [one, two] = apps;
    const id = uid('shared');
    const created = await one
      .post('/api/v1/signers', { id, type: 'plain', config: { key: signerKey() } })
      .expect(201);
    const relayer = relayerBody(id);
    const res = await two.post('/api/v1/relayers', relayer).expect(201);
    expect(res.body.data.address).toBe(created.body.data.addresses.evm);
    expect((await two.get(`/api/v1/signers/${id}`).expect(200)).body).toEqual(created.body);
    expectError(
      await two.delete(`/api/v1/signers/${id}`),
      409,
      `Signer ${id} is used by relayers: ${String(relayer.id)}`,
    );
    await one.delete(`/api/v1/relayers/${String(relayer.id)}`).expect(200);
    await two.delete(`/api/v1/signers/${id}`).expect(200);
    expectError(await one.get(`/api/v1/signers/${id}`), 404, `Signer with ID ${id} not found`);
  });
});
