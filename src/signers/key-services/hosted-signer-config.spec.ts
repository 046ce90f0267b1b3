import {
  ambientCredentialProblems,
  maskShownConfig,
  parseHostedSignerConfig,
  secretFields,
  vaultUrlProblem,
  type HostedSignerType,
} from './hosted-signer-config';

const parse = (type: HostedSignerType, raw: unknown) =>
  parseHostedSignerConfig(type, raw, { vaultHosts: [] });

describe('parseHostedSignerConfig', () => {
  it('splits a config into its shown fields (defaults filled) and its secrets', () => {
    expect(
      parse('google_cloud_kms', {
        service_account: {
          project_id: 'p',
          private_key_id: 'k',
          private_key: 'pem',
          client_email: 'e',
          client_id: 'c',
        },
        key: { key_ring_id: 'r', key_id: 'k1' },
      }),
    ).toEqual({
      problems: [],
      config: {
        type: 'google_cloud_kms',
        shown: {
          service_account: {
            project_id: 'p',
            client_id: 'c',
            auth_uri: 'https://accounts.google.com/o/oauth2/auth',
            token_uri: 'https://oauth2.googleapis.com/token',
            auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
            client_x509_cert_url: '',
            universe_domain: 'googleapis.com',
          },
          key: { location: 'global', key_ring_id: 'r', key_id: 'k1', key_version: 1 },
        },
        secrets: {
          'service_account.private_key_id': 'k',
          'service_account.private_key': 'pem',
          'service_account.client_email': 'e',
        },
      },
    });
  });

  it.each<[HostedSignerType, unknown, string[]]>([
    ['aws_kms', [], ['config must be an object']],
    [
      'aws_kms',
      { region: '', key_id: 'k', x: 1 },
      ['config.x is not an allowed field', 'config.region must be a non-empty string'],
    ],
    [
      'vault',
      { address: 'ftp://v', role_id: 'r', key_name: 'k' },
      ['config.address must be an http or https URL', 'config.secret_id is required'],
    ],
    [
      'azure_key_vault',
      { auth_type: 'password', vault_url: 'https://v.vault.azure.net', key_name: 'k' },
      ['config.auth_type must be one of client_secret, managed_identity, workload_identity'],
    ],
    [
      'google_cloud_kms',
      { service_account: 1, key: { key_ring_id: 'r', key_id: 'k', key_version: -1 } },
      ['config.service_account must be an object', 'config.key.key_version must be a whole number'],
    ],
    [
      'cdp',
      { api_key_id: 'i', api_key_secret: 7, wallet_secret: 'w', account_address: '0x0' },
      ['config.api_key_secret must be a non-empty string'],
    ],
  ])('%s %j: %j, never quoting a value', (type, raw, problems) => {
    expect(parse(type, raw)).toEqual({ config: null, problems });
  });
});

describe('vaultUrlProblem (docs/reference/hardening.md#2-key-services)', () => {
  const ANY_OTHER =
    'must be https://<vault>.vault.azure.net (or .vault.azure.cn, .vault.usgovcloudapi.net, .vault.microsoftazure.de) or a host listed in KEY_SERVICE_ALLOWED_HOSTS';
  it.each<[string, string[], string | null]>([
    ['https://relayer.vault.azure.net', [], null],
    ['https://relayer.vault.azure.net/', [], null],
    ['https://relayer.vault.azure.cn', [], null],
    ['https://relayer.vault.usgovcloudapi.net:443', [], null],
    ['https://relayer.vault.microsoftazure.de', [], null],
    ['https://RELAYER.Vault.Azure.Net', [], null],
    ['http://relayer.vault.azure.net', [], ANY_OTHER],
    ['https://vault.azure.net', [], ANY_OTHER],
    ['https://relayer.vault.azure.net.evil.example', [], ANY_OTHER],
    ['https://relayervault.azure.net', [], ANY_OTHER],
    ['https://management.azure.com', [], ANY_OTHER],
    ['https://169.254.169.254', [], ANY_OTHER],
    ['https://kv.internal.example', [], ANY_OTHER],
    ['https://kv.internal.example', ['kv.internal.example'], null],
    ['http://kv.internal.example:8443', ['*.internal.example'], null],
    ['https://kv.other.example', ['kv.internal.example'], ANY_OTHER],
    ['https://user:pass@relayer.vault.azure.net', [], 'must not contain credentials'],
    ['https://user@kv.internal.example', ['kv.internal.example'], 'must not contain credentials'],
    ['https://relayer.vault.azure.net/keys', [], 'must have no path, query or fragment'],
    ['https://relayer.vault.azure.net/?api-version=1', [], 'must have no path, query or fragment'],
    ['https://relayer.vault.azure.net/#x', [], 'must have no path, query or fragment'],
  ])('%s with allowed hosts %j: %j', (url, hosts, problem) => {
    expect(vaultUrlProblem(url, hosts)).toBe(problem);
  });
});

describe('ambientCredentialProblems', () => {
  const RULE =
    'is accepted only from the configuration file (KEY_SERVICE_AMBIENT_CREDENTIALS_IN_API is not true)';
  it.each<[HostedSignerType, Record<string, unknown>, string[]]>([
    [
      'aws_kms',
      { key_id: 'k' },
      [`type aws_kms signs in with the service's own AWS credentials: it ${RULE}`],
    ],
    [
      'azure_key_vault',
      { auth_type: 'managed_identity', vault_url: 'https://v.vault.azure.net', key_name: 'k' },
      [`config.auth_type managed_identity uses the service's own Azure identity: it ${RULE}`],
    ],
    [
      'azure_key_vault',
      {
        auth_type: 'workload_identity',
        federated_token_file: '/var/run/token',
        vault_url: 'https://v.vault.azure.net',
        key_name: 'k',
      },
      [
        `config.auth_type workload_identity uses the service's own Azure identity: it ${RULE}`,
        `config.federated_token_file names a file of the server: it ${RULE}`,
      ],
    ],
    [
      'azure_key_vault',
      {
        client_secret: 's',
        federated_token_file: '/etc/passwd',
        vault_url: 'https://v.vault.azure.net',
        key_name: 'k',
      },
      [`config.federated_token_file names a file of the server: it ${RULE}`],
    ],
    [
      'azure_key_vault',
      {
        client_secret: 's',
        tenant_id: 't',
        client_id: 'c',
        vault_url: 'https://v.vault.azure.net',
        key_name: 'k',
      },
      [],
    ],
  ])('%s %j: %j', (type, raw, problems) => {
    const { config } = parse(type, raw);
    expect(config && ambientCredentialProblems(config)).toEqual(problems);
  });
});

describe('a URL field with credentials', () => {
  const raw = {
    address: 'https://user:pw@vault.example.com:8200',
    role_id: 'r',
    secret_id: 's',
    key_name: 'k',
  };
  it('is masked for responses, and exported as an env reference', () => {
    const { config } = parse('vault', raw);
    const shown = maskShownConfig('vault', config?.shown ?? {});
    expect(shown).toEqual({
      address: 'https://***@vault.example.com:8200/',
      namespace: null,
      key_name: 'k',
      mount_point: null,
    });
    expect(secretFields('vault', shown)).toEqual(['address', 'role_id', 'secret_id']);
  });

  it('is shown as it is without credentials', () => {
    const { config } = parse('vault', { ...raw, address: 'https://vault.example.com:8200/v' });
    expect(maskShownConfig('vault', config?.shown ?? {}).address).toBe('https://vault.example.com:8200/v');
  });

  it('sent back masked is refused', () => {
    expect(parse('vault', { ...raw, address: 'https://***@vault.example.com:8200/' })).toEqual({
      config: null,
      problems: ['config.address is masked (***): the credentials it hid are not in it'],
    });
  });
});

describe('parseHostedSignerConfig: an Azure vault_url', () => {
  it('names the problem of a vault URL outside the Key Vault domains', () => {
    expect(
      parse('azure_key_vault', { client_secret: 's', vault_url: 'https://evil.example.com', key_name: 'k' }),
    ).toEqual({
      config: null,
      problems: [
        'config.vault_url must be https://<vault>.vault.azure.net (or .vault.azure.cn, .vault.usgovcloudapi.net, .vault.microsoftazure.de) or a host listed in KEY_SERVICE_ALLOWED_HOSTS',
      ],
    });
  });
});
