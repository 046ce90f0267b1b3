import { SignerTypeRequest, type SignerCreateRequest } from '@openzeppelin/relayer-sdk';
import { randomBytes } from 'node:crypto';
import { successBody } from '../support/envelope';
import {
  AwsKmsFake,
  azureJwk,
  AzureKeyVaultFake,
  Ed25519TestKey,
  GoogleKmsFake,
  googleServiceAccountKey,
  resolveTestNamesToLoopback,
  Secp256k1TestKey,
  VaultFake,
} from '../support/key-service-fakes';
import { secrets } from '../support/secrets';
import { useTestApp } from '../support/test-app';
import { uid } from '../factories';
import { answer, encryptionKey, refusal, refused, sdkFor } from './sdk';

const evmKey = new Secp256k1TestKey();
const solanaKey = new Ed25519TestKey();
const aws = new AwsKmsFake();
const vault = new VaultFake();
const google = new GoogleKmsFake();
const azure = new AzureKeyVaultFake();
const googlePrivateKey = googleServiceAccountKey();
const hidden = (label: string): string => secrets.add(`${label}-${randomBytes(12).toString('hex')}`);

/** One request of each hosted type (Azure's is typed by the reference system, not yet by SDK 1.10), and what responses show. */
const SIGNERS: ReadonlyArray<readonly [string, () => SignerCreateRequest['config'], () => object, object]> = [
  [
    SignerTypeRequest.AWS_KMS,
    () => ({ region: 'us-east-1', key_id: 'alias/relayer' }),
    () => ({ region: 'us-east-1', key_id: 'alias/relayer' }),
    evmKey.addresses(),
  ],
  [
    SignerTypeRequest.VAULT,
    () => ({ address: vault.url(), key_name: 'relayer', role_id: vault.roleId, secret_id: vault.secretId }),
    () => ({ address: vault.url(), key_name: 'relayer', namespace: null, mount_point: null }),
    { ...evmKey.addresses(), ...new Ed25519TestKey(evmKey.privateKey).addresses() },
  ],
  [
    SignerTypeRequest.VAULT_TRANSIT,
    () => ({
      address: vault.url(),
      key_name: 'solana',
      mount_point: 'transit',
      pubkey: solanaKey.publicKey.toString('base64'),
      role_id: vault.roleId,
      secret_id: vault.secretId,
    }),
    () => ({
      address: vault.url(),
      key_name: 'solana',
      namespace: null,
      mount_point: 'transit',
      pubkey: solanaKey.publicKey.toString('base64'),
    }),
    solanaKey.addresses(),
  ],
  [
    SignerTypeRequest.TURNKEY,
    () => ({
      api_private_key: hidden('turnkey'),
      api_public_key: '03aa',
      organization_id: 'org',
      private_key_id: 'key',
      public_key: solanaKey.publicKey.toString('hex'),
    }),
    () => ({
      api_public_key: '03aa',
      organization_id: 'org',
      private_key_id: 'key',
      public_key: solanaKey.publicKey.toString('hex'),
    }),
    solanaKey.addresses(),
  ],
  [
    SignerTypeRequest.CDP,
    () => ({
      account_address: evmKey.evm,
      api_key_id: 'id',
      api_key_secret: hidden('cdp'),
      wallet_secret: hidden('wallet'),
    }),
    () => ({ account_address: evmKey.evm, api_key_id: 'id' }),
    evmKey.addresses(),
  ],
  [
    SignerTypeRequest.GOOGLE_CLOUD_KMS,
    () => ({
      key: { key_id: 'k', key_ring_id: 'ring', key_version: 2, location: 'europe-west1' },
      service_account: {
        auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
        auth_uri: 'https://accounts.google.com/o/oauth2/auth',
        client_email: hidden('relayer') + '@project.iam.gserviceaccount.com',
        client_id: '1',
        client_x509_cert_url: 'https://www.googleapis.com/robot/v1/metadata/x509/relayer',
        private_key: googlePrivateKey,
        private_key_id: hidden('key-id'),
        project_id: 'project',
        token_uri: 'https://oauth2.googleapis.com/token',
        universe_domain: 'googleapis.com',
      },
    }),
    () => ({
      key: { key_id: 'k', key_ring_id: 'ring', key_version: 2, location: 'europe-west1' },
      service_account: {
        auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
        auth_uri: 'https://accounts.google.com/o/oauth2/auth',
        client_id: '1',
        client_x509_cert_url: 'https://www.googleapis.com/robot/v1/metadata/x509/relayer',
        project_id: 'project',
        token_uri: 'https://oauth2.googleapis.com/token',
        universe_domain: 'googleapis.com',
      },
    }),
    solanaKey.addresses(),
  ],
  [
    'azure_key_vault',
    () =>
      ({
        // typed by the reference system's AzureKeyVaultSignerRequestConfig, not by SDK 1.10

        tenant_id: azure.tenantId,
        client_id: azure.clientId,
        client_secret: azure.clientSecret,
        vault_url: azure.vaultUrl(),
        key_name: 'evm',
        key_version: '1',
      }) as unknown as SignerCreateRequest['config'],
    () => ({
      auth_type: 'client_secret',
      tenant_id: azure.tenantId,
      client_id: azure.clientId,
      vault_url: azure.vaultUrl(),
      key_name: 'evm',
      key_version: '1',
    }),
    evmKey.addresses(),
  ],
];

describe('Signers held by key services through the SDK: createSigner, getSigner, listSigners, deleteSigner', () => {
  // Spied while this spec runs, not from when it is loaded: another spec of its group restores its own.
  let dns: jest.SpyInstance | undefined;
  beforeAll(() => {
    dns = resolveTestNamesToLoopback();
  });
  afterAll(() => dns?.mockRestore());
  beforeAll(async () => {
    await Promise.all([aws.start(), vault.start(), google.start(), azure.start()]);
    aws.keys.set('alias/relayer', { spki: evmKey.spki(), spec: 'ECC_SECG_P256K1' });
    vault.kv.set('secret/relayer', evmKey.hex);
    secrets.add(evmKey.hex);
    google.keys.set(
      'projects/project/locations/europe-west1/keyRings/ring/cryptoKeys/k/cryptoKeyVersions/2',
      {
        spki: solanaKey.spki(),
        algorithm: 'EC_SIGN_ED25519',
      },
    );
    azure.keys.set('evm', azureJwk.secp256k1(evmKey));
    process.env.AWS_ACCESS_KEY_ID = 'AKIATESTKEYSERVICE';
    process.env.AWS_SECRET_ACCESS_KEY = secrets.add(randomBytes(20).toString('base64'));
  });
  afterAll(async () => {
    await Promise.all([aws.close(), vault.close(), google.close(), azure.close()]);
  });
  const handle = useTestApp(() => ({
    STORAGE_ENCRYPTION_KEY: encryptionKey,
    AWS_ENDPOINT_URL_KMS: aws.url(),
    GOOGLE_CLOUD_KMS_ENDPOINT: google.url(),
    AZURE_AUTHORITY_HOST: azure.url(),
    // The Azure fake is reached by a name of the operator's; aws_kms uses the service's own credentials.
    KEY_SERVICE_ALLOWED_HOSTS: AzureKeyVaultFake.HOST,
    KEY_SERVICE_AMBIENT_CREDENTIALS_IN_API: 'true',
  }));
  const sdk = () => sdkFor(handle.current);

  it.each(SIGNERS)(
    '%s: created, read, listed and deleted; no credential in any answer',
    async (type, config, shown, addresses) => {
      const id = uid('hosted');
      const expected = { id, type, config: shown(), addresses };
      const request = { id, type: type as SignerTypeRequest, config: config() };
      const created = await sdk().signers.createSigner(request);
      expect(answer(created)).toEqual({ status: 201, body: successBody(expected) });
      expect(answer(await sdk().signers.getSigner(id))).toEqual({ status: 200, body: successBody(expected) });
      // The file's 257 signers come first; the one created here is the only one after them.
      const listed = await sdk().signers.listSigners(3, 100);
      expect(listed.data.data).toContainEqual(expected);
      expect(secrets.foundIn(JSON.stringify([created.data, listed.data]))).toEqual([]);
      expect(answer(await sdk().signers.deleteSigner(id))).toEqual({
        status: 200,
        body: successBody('Signer deleted successfully'),
      });
      expect(await refusal(sdk().signers.getSigner(id))).toEqual(
        refused(404, `Signer with ID ${id} not found`),
      );
    },
  );
});
