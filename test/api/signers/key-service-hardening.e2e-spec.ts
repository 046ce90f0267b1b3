import { randomBytes } from 'node:crypto';
import { uid } from '../../factories';
import { expectError, successBody } from '../../support/envelope';
import {
  AwsKmsFake,
  azureJwk,
  AzureKeyVaultFake,
  GoogleKmsFake,
  googleServiceAccountKey,
  ManagedIdentityFake,
  resolveTestNamesToLoopback,
  Secp256k1TestKey,
  VaultFake,
} from '../../support/key-service-fakes';
import { secrets } from '../../support/secrets';
import { startTestApp, useTestApp, type Env, type TestApp } from '../../support/test-app';

/** Key services (docs/reference/hardening.md#2-key-services). */
const key = new Secp256k1TestKey();
secrets.add(key.hex);
const vault = new VaultFake();
const azure = new AzureKeyVaultFake();
const aws = new AwsKmsFake();
const identity = new ManagedIdentityFake();
const google = new GoogleKmsFake();
const googlePrivateKey = googleServiceAccountKey();
const FIFTY_MB = 50 * 1024 * 1024;
const PRIVATE_REFUSAL =
  'points to a private or loopback address (set KEY_SERVICE_BLOCK_PRIVATE_IPS=false to allow private addresses)';
const AMBIENT =
  'is accepted only from the configuration file (KEY_SERVICE_AMBIENT_CREDENTIALS_IN_API is not true)';

const vaultConfig = (address = vault.url()) => ({
  address,
  role_id: vault.roleId,
  secret_id: vault.secretId,
  key_name: 'relayer',
});
const azureConfig = (vaultUrl = azure.vaultUrl()) => ({
  tenant_id: azure.tenantId,
  client_id: azure.clientId,
  client_secret: azure.clientSecret,
  vault_url: vaultUrl,
  key_name: 'evm',
});
const managedConfig = (vaultUrl: string) => ({
  auth_type: 'managed_identity',
  vault_url: vaultUrl,
  key_name: 'evm',
});

describe('key services: bounded answers, vault URLs, ambient credentials, masked URLs', () => {
  // Spied while this spec runs, not from when it is loaded: another spec of its group restores its own.
  let dns: jest.SpyInstance | undefined;
  beforeAll(() => {
    dns = resolveTestNamesToLoopback();
  });
  const saved = { ...process.env };
  beforeAll(async () => {
    await Promise.all([vault.start(), azure.start(), aws.start(), identity.start(), google.start()]);
    vault.kv.set('secret/relayer', key.hex);
    azure.keys.set('evm', azureJwk.secp256k1(key));
    aws.keys.set('alias/evm', { spki: key.spki(), spec: 'ECC_SECG_P256K1' });
    // Read by @azure/identity and the AWS SDK from the environment, as in a deployment.
    Object.assign(process.env, identity.env(), {
      AWS_ACCESS_KEY_ID: 'AKIATESTKEYSERVICE',
      AWS_SECRET_ACCESS_KEY: secrets.add(randomBytes(20).toString('base64')),
    });
  });
  afterAll(async () => {
    process.env = saved;
    dns?.mockRestore();
    await Promise.all([vault.close(), azure.close(), aws.close(), identity.close(), google.close()]);
  });
  const env = (): Env => ({
    STORAGE_ENCRYPTION_KEY: secrets.add(randomBytes(32).toString('base64')),
    AZURE_AUTHORITY_HOST: azure.url(),
    AWS_ENDPOINT_URL_KMS: aws.url(),
    GOOGLE_CLOUD_KMS_ENDPOINT: google.url(),
    KEY_SERVICE_ALLOWED_HOSTS: `${AzureKeyVaultFake.HOST},127.0.0.1`,
  });
  const handle = useTestApp(env);
  const app = () => handle.current;
  const other = async (extra: Env, run: (other: TestApp) => Promise<void>): Promise<void> => {
    const started = await startTestApp({ DATABASE_URL: handle.database.url, ...env(), ...extra });
    try {
      await run(started);
    } finally {
      await started.close();
    }
  };
  const notStored = async (id: string, on: TestApp = app()) =>
    expectError(await on.get(`/api/v1/signers/${id}`), 404, `Signer with ID ${id} not found`);

  describe('answers are read at most 64 KiB', () => {
    it.each([
      ['vault', 'HashiCorp Vault', vault, () => vaultConfig()],
      ['azure_key_vault', 'Azure Key Vault', azure, () => azureConfig()],
    ] as const)(
      '%s answering 50 MB: 503 naming the signer and the service, nothing stored, the next create works',
      async (type, service, fake, config) => {
        const id = uid('huge');
        fake.answerBytes = FIFTY_MB;
        try {
          expectError(
            await app().post('/api/v1/signers', { id, type, config: config() }),
            503,
            `Signer ${id}: ${service} (${type}) could not be reached: answer larger than 64 KiB`,
          );
        } finally {
          fake.answerBytes = null;
        }
        await notStored(id);
        const next = uid('next');
        const res = await app().post('/api/v1/signers', { id: next, type, config: config() });
        expect({
          status: res.status,
          addresses: (res.body as { data: { addresses: object } }).data.addresses,
        }).toEqual({
          status: 201,
          addresses: type === 'vault' ? expect.objectContaining(key.addresses()) : key.addresses(),
        });
      },
    );

    it.each([
      ['aws_kms', 'AWS KMS', aws, () => ({ key_id: 'alias/evm' })],
      [
        'google_cloud_kms',
        'Google Cloud KMS',
        google,
        () => ({
          service_account: {
            project_id: 'relayer-1',
            private_key_id: 'key-1',
            private_key: googlePrivateKey,
            client_email: 'relayer@relayer-1.iam.gserviceaccount.com',
            client_id: '1234',
          },
          key: { key_ring_id: 'ring', key_id: 'evm' },
        }),
      ],
    ] as const)(
      '%s answering 50 MB (through its SDK): 503 naming the signer and the service, nothing stored',
      async (type, service, fake, config) => {
        await other({ KEY_SERVICE_AMBIENT_CREDENTIALS_IN_API: 'true' }, async (ambient) => {
          const id = uid('huge');
          fake.answerBytes = FIFTY_MB;
          try {
            expectError(
              await ambient.post('/api/v1/signers', { id, type, config: config() }),
              503,
              `Signer ${id}: ${service} (${type}) could not be reached: answer larger than 64 KiB`,
            );
          } finally {
            fake.answerBytes = null;
          }
          await notStored(id, ambient);
        });
      },
    );
  });

  describe('vault_url (Azure)', () => {
    it.each([
      [
        'https://evil.example.com',
        'must be https://<vault>.vault.azure.net (or .vault.azure.cn, .vault.usgovcloudapi.net, .vault.microsoftazure.de) or a host listed in KEY_SERVICE_ALLOWED_HOSTS',
      ],
      ['https://user:pass@relayer.vault.azure.net', 'must not contain credentials'],
      ['https://relayer.vault.azure.net/keys?x=1', 'must have no path, query or fragment'],
    ])('%s: 400 naming config.vault_url, no call', async (vaultUrl, rule) => {
      const before = azure.calls.length;
      expectError(
        await app().post('/api/v1/signers', {
          id: uid('vurl'),
          type: 'azure_key_vault',
          config: azureConfig(vaultUrl),
        }),
        400,
        `config.vault_url ${rule}`,
      );
      expect(azure.calls.length).toBe(before);
    });

    it('a listed name that resolves to loopback is refused at connect time when KEY_SERVICE_BLOCK_PRIVATE_IPS=true', async () => {
      await other({ KEY_SERVICE_BLOCK_PRIVATE_IPS: 'true' }, async (strict) => {
        const id = uid('rebind');
        const before = azure.calls.length;
        expectError(
          await strict.post('/api/v1/signers', { id, type: 'azure_key_vault', config: azureConfig() }),
          503,
          `Signer ${id}: Azure Key Vault (azure_key_vault) could not be reached: ${AzureKeyVaultFake.HOST} resolves to an address that ${PRIVATE_REFUSAL}`,
        );
        expect(azure.calls.length).toBe(before);
        await notStored(id, strict);
      });
    });

    it('with AZURE_AUTHORITY_HOST set, a vault whose challenge names another resource gets no managed-identity token', async () => {
      await other({ KEY_SERVICE_AMBIENT_CREDENTIALS_IN_API: 'true' }, async (ambient) => {
        azure.acceptedTokens.add(identity.token);
        azure.authorizations = [];
        // A vault of the caller's choosing (127.0.0.1 is listed here) asks for a token for Azure's management API.
        azure.challengeResource = 'https://management.azure.com';
        const id = uid('steal');
        try {
          expectError(
            await ambient.post('/api/v1/signers', {
              id,
              type: 'azure_key_vault',
              config: managedConfig(azure.url()),
            }),
            503,
            `Signer ${id}: Azure Key Vault (azure_key_vault) could not be reached: the vault asked for a token meant for another resource`,
          );
        } finally {
          azure.challengeResource = 'http://vault.test';
        }
        expect({ tokenRequests: identity.resources, sentToVault: azure.authorizations }).toEqual({
          tokenRequests: [],
          sentToVault: [],
        });
        await notStored(id, ambient);
        // The same identity for a vault whose challenge names its own domain: a token for it, and the key.
        const ok = uid('managed');
        const res = await ambient.post('/api/v1/signers', {
          id: ok,
          type: 'azure_key_vault',
          config: managedConfig(azure.vaultUrl()),
        });
        expect({ status: res.status, body: res.body as unknown }).toEqual({
          status: 201,
          body: successBody({
            id: ok,
            type: 'azure_key_vault',
            config: {
              auth_type: 'managed_identity',
              tenant_id: null,
              client_id: null,
              vault_url: azure.vaultUrl(),
              key_name: 'evm',
              key_version: null,
            },
            addresses: key.addresses(),
          }),
        });
        expect({ tokenRequests: identity.resources, sentToVault: azure.authorizations }).toEqual({
          tokenRequests: ['http://vault.test'],
          sentToVault: [`Bearer ${identity.token}`],
        });
      });
    });
  });

  describe('ambient credentials stay with the operator', () => {
    it('through the API: 400 naming the field, nothing called', async () => {
      const before = [aws.calls.length, identity.resources.length];
      expectError(
        await app().post('/api/v1/signers', {
          id: uid('amb'),
          type: 'aws_kms',
          config: { key_id: 'alias/evm' },
        }),
        400,
        `type aws_kms signs in with the service's own AWS credentials: it ${AMBIENT}`,
      );
      expectError(
        await app().post('/api/v1/signers', {
          id: uid('amb'),
          type: 'azure_key_vault',
          config: managedConfig(azure.vaultUrl()),
        }),
        400,
        `config.auth_type managed_identity uses the service's own Azure identity: it ${AMBIENT}`,
      );
      expectError(
        await app().post('/api/v1/signers', {
          id: uid('amb'),
          type: 'azure_key_vault',
          config: {
            auth_type: 'workload_identity',
            tenant_id: azure.tenantId,
            client_id: azure.clientId,
            federated_token_file: '/var/run/secrets/azure/tokens/azure-identity-token',
            vault_url: azure.vaultUrl(),
            key_name: 'evm',
          },
        }),
        400,
        `config.auth_type workload_identity uses the service's own Azure identity: it ${AMBIENT}; ` +
          `config.federated_token_file names a file of the server: it ${AMBIENT}`,
      );
      expect([aws.calls.length, identity.resources.length]).toEqual(before);
    });

    it('with KEY_SERVICE_AMBIENT_CREDENTIALS_IN_API=true: accepted', async () => {
      await other({ KEY_SERVICE_AMBIENT_CREDENTIALS_IN_API: 'true' }, async (ambient) => {
        const id = uid('amb');
        const res = await ambient.post('/api/v1/signers', {
          id,
          type: 'aws_kms',
          config: { key_id: 'alias/evm' },
        });
        expect({ status: res.status, body: res.body as unknown }).toEqual({
          status: 201,
          body: successBody({
            id,
            type: 'aws_kms',
            config: { region: null, key_id: 'alias/evm' },
            addresses: key.addresses(),
          }),
        });
      });
    });
  });

  describe('a key-service URL with credentials', () => {
    it('is masked in the answer, the list, the audit trail and the export (an env reference there)', async () => {
      const password = secrets.add(`pw${randomBytes(8).toString('hex')}`);
      const address = `http://relayer:${password}@127.0.0.1:${vault.port}`;
      const masked = `http://***@127.0.0.1:${vault.port}/`;
      const id = uid('userinfo');
      const created = await app().post('/api/v1/signers', {
        id,
        type: 'vault',
        config: vaultConfig(address),
      });
      const shown = {
        id,
        type: 'vault',
        config: { address: masked, namespace: null, key_name: 'relayer', mount_point: null },
        addresses: expect.objectContaining(key.addresses()) as unknown,
      };
      expect({ status: created.status, body: created.body as unknown }).toEqual({
        status: 201,
        body: successBody(shown),
      });
      // The credentials went to Vault as HTTP basic authentication.
      expect(vault.authorizations).toContain(
        `Basic ${Buffer.from(`relayer:${password}`).toString('base64')}`,
      );
      const one = await app().get(`/api/v1/signers/${id}`).expect(200);
      expect(one.body).toEqual(successBody(shown));
      // The catalogue's 257 signers come first: the list's last page holds the API's.
      const list = await app().get('/api/v1/signers?per_page=100&page=3').expect(200);
      expect((list.body as { data: unknown[] }).data).toContainEqual(shown);
      const audit = await app().get(`/api/v1/audit?resource_type=signer&resource_id=${id}`).expect(200);
      expect(
        (audit.body as { data: Array<{ action: string; after: unknown }> }).data.map((r) => [
          r.action,
          r.after,
        ]),
      ).toEqual([['signer.create', (created.body as { data: unknown }).data]]);
      const exported = await app().get('/api/v1/config').expect(200);
      const variable = (field: string) => ({
        type: 'env',
        value: `SIGNER_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_${field}`,
      });
      expect(
        (exported.body as { data: { signers: Array<{ id: string }> } }).data.signers.find((s) => s.id === id),
      ).toEqual({
        id,
        type: 'vault',
        config: {
          address: variable('ADDRESS'),
          namespace: null,
          key_name: 'relayer',
          mount_point: null,
          role_id: variable('ROLE_ID'),
          secret_id: variable('SECRET_ID'),
        },
      });
      expect(
        secrets.foundIn(created.text + list.text + audit.text + exported.text + app().logText()),
      ).toEqual([]);
      // The masked form sent back is refused: the credentials it hid are not in it.
      expectError(
        await app().post('/api/v1/signers', {
          id: uid('masked'),
          type: 'vault',
          config: vaultConfig(masked),
        }),
        400,
        'config.address is masked (***): the credentials it hid are not in it',
      );
    });
  });
});
