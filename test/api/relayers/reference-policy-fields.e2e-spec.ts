import { StrKey } from '@stellar/stellar-base';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../../../src/bootstrap';
import { loadConfig } from '../../../src/config/app-config';
import { ISO, relayerBody, uid, type NetworkType } from '../../factories';
import { errorBody, successBody } from '../../support/envelope';
import { Ed25519TestKey, Secp256k1TestKey } from '../../support/key-service-fakes';
import { secrets } from '../../support/secrets';
import { defaultCatalogue, newApiKey, startTestApp, useTestApp } from '../../support/test-app';
import { createTestDatabase, type TestDatabase } from '../../support/test-database';
import { writeConfigFile } from '../../support/test-catalogue';

// The reference system's policy fields, in the API and in the file (docs/reference/relayers.md#41-the-policy-follows-the-network-type,
// #44-solana-and-stellar-details); a relayer on a signer whose key cannot sign for its network type
// names signer_id (docs/reference/kms-signers.md#12-the-curve-decides-the-network-types).

const G_ISSUER = 'GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN';
const CONTRACT = StrKey.encodeContract(randomBytes(32));
/** The same shape with its last character changed: the StrKey checksum no longer holds. */
const BAD_CHECKSUM = `${CONTRACT.slice(0, -1)}${CONTRACT.endsWith('A') ? 'B' : 'A'}`;
const ASSET_RULE =
  "must be 'native', 'XLM', CODE:ISSUER (a code of 1 to 12 letters or digits, a G... issuer) or a Soroban contract id (C...)";

/** Every accepted form of a Stellar `allowed_tokens` asset, as the reference system's files write them. */
const STELLAR_TOKENS = [
  { asset: 'native' },
  { asset: `USDC:${G_ISSUER}`, max_allowed_fee: 100000 },
  { asset: CONTRACT, swap_config: { slippage_percentage: 1 } },
];

describe('reference policy fields over HTTP', () => {
  const handle = useTestApp();
  const app = () => handle.current;

  it('EVM include_revert_data is accepted, returned, patched and read back', async () => {
    const created = await app()
      .post(
        '/api/v1/relayers',
        relayerBody('evm', { policies: { include_revert_data: true, min_balance: 1 } }),
      )
      .expect(201);
    const relayer = (created.body as { data: { id: string; policies: unknown } }).data;
    expect(relayer.policies).toEqual({ include_revert_data: true, min_balance: 1 });
    const patched = await app()
      .patch(`/api/v1/relayers/${relayer.id}`, { policies: { include_revert_data: false } })
      .expect(200);
    expect((patched.body as { data: { policies: unknown } }).data.policies).toEqual({
      include_revert_data: false,
      min_balance: 1,
    });
    const read = await app().get(`/api/v1/relayers/${relayer.id}`).expect(200);
    expect(read.body).toEqual(successBody(patched.body.data));
  });

  it.each([['true'], [1], [{}]])('EVM include_revert_data %p → 400 naming the field', async (value) => {
    const res = await app().post(
      '/api/v1/relayers',
      relayerBody('evm', { policies: { include_revert_data: value } }),
    );
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: errorBody('policies.include_revert_data must be a boolean'),
    });
  });

  it.each([[[{ asset: 'XLM' }]], [STELLAR_TOKENS]])(
    'Stellar allowed_tokens %j: accepted and returned as given',
    async (tokens) => {
      const created = await app()
        .post('/api/v1/relayers', relayerBody('stellar', { policies: { allowed_tokens: tokens } }))
        .expect(201);
      const relayer = (created.body as { data: { id: string; policies: unknown } }).data;
      expect(relayer.policies).toEqual({ allowed_tokens: tokens });
      const read = await app().get(`/api/v1/relayers/${relayer.id}`).expect(200);
      expect(read.body).toEqual(successBody(created.body.data));
    },
  );

  it.each([
    ['xlm'],
    ['Native'],
    [CONTRACT.toLowerCase()],
    [BAD_CHECKSUM],
    [CONTRACT.slice(0, -1)],
    [`${CONTRACT}A`],
    [`USDC:${CONTRACT}`],
    [`:${G_ISSUER}`],
    [G_ISSUER],
  ])('Stellar allowed_tokens asset %p → 400 naming its path', async (asset) => {
    const res = await app().post(
      '/api/v1/relayers',
      relayerBody('stellar', { policies: { allowed_tokens: [{ asset: 'native' }, { asset }] } }),
    );
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: errorBody(`policies.allowed_tokens[1].asset ${ASSET_RULE}`),
    });
  });

  it('Stellar native and XLM are one asset: both in one list is a 400', async () => {
    const res = await app().post(
      '/api/v1/relayers',
      relayerBody('stellar', { policies: { allowed_tokens: [{ asset: 'native' }, { asset: 'XLM' }] } }),
    );
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: errorBody('policies.allowed_tokens must not contain the same asset twice'),
    });
  });

  const ed25519 = new Ed25519TestKey();
  const secp256k1 = new Secp256k1TestKey();
  it.each([
    ['ed25519', 'evm', ed25519.publicKey.toString('hex'), 'solana, stellar'],
    ['secp256k1', 'solana', secp256k1.point.getPublicKey('hex', 'uncompressed'), 'evm'],
    ['secp256k1', 'stellar', secp256k1.point.getPublicKey('hex', 'uncompressed'), 'evm'],
  ] as const)(
    'a relayer on a signer with an %s key for %s networks → 400 naming signer_id',
    async (_curve, type: NetworkType, publicKey, signsFor) => {
      const signerId = uid('tk');
      await app()
        .post('/api/v1/signers', {
          id: signerId,
          type: 'turnkey',
          config: {
            api_public_key: '02abcd',
            api_private_key: secrets.add(randomBytes(32).toString('hex')),
            organization_id: 'org-1',
            private_key_id: 'pk-1',
            public_key: publicKey,
          },
        })
        .expect(201);
      const res = await app().post('/api/v1/relayers', relayerBody(type, { signer_id: signerId }));
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: errorBody(
          `signer_id must name a signer that can sign for ${type} networks (signer '${signerId}' signs for ${signsFor})`,
        ),
      });
    },
  );
});

/** The test catalogue (networks, signers) with `relayers`, written to a file of its own. */
function configWith(relayers: object[]): string {
  const catalogue = JSON.parse(fs.readFileSync(defaultCatalogue().file, 'utf8')) as object;
  return writeConfigFile({ ...catalogue, relayers });
}

describe('reference policy fields in the configuration file', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('file relayers with include_revert_data and every Stellar asset form start and are served as given', async () => {
    const evm = relayerBody('evm', { policies: { include_revert_data: true } });
    const stellar = relayerBody('stellar', { policies: { allowed_tokens: STELLAR_TOKENS } });
    const app = await startTestApp({ DATABASE_URL: database.url, CONFIG_FILE: configWith([evm, stellar]) });
    try {
      for (const body of [evm, stellar]) {
        const res = await app.get(`/api/v1/relayers/${body.id}`).expect(200);
        expect(res.body).toEqual(
          successBody({
            ...body,
            address: expect.any(String) as string,
            notification_id: null,
            system_disabled: false,
            disabled_reason: null,
            custom_rpc_urls: null,
            created_at: ISO,
            updated_at: ISO,
          }),
        );
      }
    } finally {
      await app.close();
    }
  });

  it('a file relayer with an invalid asset stops the start, naming the entry and the field path', async () => {
    const file = configWith([
      relayerBody('stellar', { policies: { allowed_tokens: [{ asset: BAD_CHECKSUM }] } }),
    ]);
    const config = loadConfig({
      NODE_ENV: 'test',
      API_KEY: newApiKey(),
      LOG_LEVEL: 'silent',
      RELAYER_HEALTH_CHECKS: 'false',
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-data-')),
      DATABASE_URL: database.url,
      CONFIG_FILE: file,
    });
    const app = await createApp(config);
    try {
      await expect(app.init()).rejects.toThrow(
        `CONFIG_FILE ${file}: relayers[0].policies.allowed_tokens[0].asset ${ASSET_RULE}`,
      );
    } finally {
      await app.close();
    }
  });
});
