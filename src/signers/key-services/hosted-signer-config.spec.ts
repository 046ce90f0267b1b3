import { parseHostedSignerConfig, type HostedSignerType } from './hosted-signer-config';

const parse = (type: HostedSignerType, raw: unknown) => {
  const problems: string[] = [];
  const config = parseHostedSignerConfig(type, raw, 'config', problems, { vaultHosts: [] });
  return { config, problems };
};

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
      { auth_type: 'password', vault_url: 'https://v', key_name: 'k' },
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
