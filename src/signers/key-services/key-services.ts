import { Inject, Injectable } from '@nestjs/common';
import type { AccessToken, TokenCredential } from '@azure/identity';
import { ServiceUnavailableError, ValidationError } from '../../common/errors/domain-errors';
import { lazyRequire } from '../../common/modules/lazy-require';
import { DnsResolver } from '../../common/security/dns-resolver';
import { isPlainObject } from '../../common/validation/field-rules';
import { addressesOfKey, type SignerAddresses } from '../../catalogue';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/app-config.module';
import { shownText, type HostedSignerConfig } from './hosted-signer-config';
import { KeyServiceHttp } from './key-service-http';
import { KeyServiceCallError, KeyServiceSession } from './key-service-session';
import {
  addressesOf,
  addressesOfAccount,
  fromJwk,
  fromSpki,
  parseGivenPublicKey,
  UnsupportedKeyError,
  type PublicKey,
} from './public-key';

const loadAwsKms = lazyRequire<typeof import('@aws-sdk/client-kms')>('@aws-sdk/client-kms');
const loadGoogleKms = lazyRequire<typeof import('@google-cloud/kms')>('@google-cloud/kms');
const loadAzureKeys = lazyRequire<typeof import('@azure/keyvault-keys')>('@azure/keyvault-keys');
const loadAzureIdentity = lazyRequire<typeof import('@azure/identity')>('@azure/identity');

const SERVICE_NAMES: Readonly<Record<HostedSignerConfig['type'], string>> = {
  vault: 'HashiCorp Vault',
  vault_transit: 'HashiCorp Vault',
  aws_kms: 'AWS KMS',
  google_cloud_kms: 'Google Cloud KMS',
  azure_key_vault: 'Azure Key Vault',
  turnkey: 'Turnkey',
  cdp: 'Coinbase CDP',
};

/** Whether its addresses need a call to its key service (the others' config gives the public key). */
export function needsCall({ type }: HostedSignerConfig): boolean {
  return type !== 'vault_transit' && type !== 'turnkey' && type !== 'cdp';
}

/**
 * The addresses of a secp256k1 public key (hex, 33 or 65 bytes: an EVM address) or an ed25519 one (hex or
 * base64, 32 bytes: Solana and Stellar addresses), for a replacement of KeyServices; a ValidationError
 * when the text is neither.
 */
export function addressesOfPublicKey(text: string): SignerAddresses {
  const key = parseGivenPublicKey(text);
  if (!key) throw new ValidationError('not a secp256k1 or an ed25519 public key');
  return addressesOf(key);
}

/**
 * The addresses of a hosted signer (docs/reference/kms-signers.md): from the public key its config
 * gives, else from one call to its key service. Every endpoint passes the key-service URL policy
 * first, and every connection goes through KeyServiceHttp (the policy again, the 64 KiB cap).
 * Replaceable (docs/reference/extension-events.md#3-replaceable-parts): used for the signers created
 * through the API and for the configuration file's hosted signers.
 */
@Injectable()
export class KeyServices {
  private readonly env: AppConfig['secretsEnv'];
  private readonly http: KeyServiceHttp;

  /** @internal Nest injects it. */
  constructor(@Inject(APP_CONFIG) config: AppConfig, resolver: DnsResolver) {
    this.env = config.secretsEnv;
    this.http = new KeyServiceHttp(config.keyServiceUrlPolicy, resolver);
  }

  async addresses(signerId: string, config: HostedSignerConfig): Promise<SignerAddresses> {
    const session = new KeyServiceSession(this.http);
    try {
      return await this.resolve(config, session);
    } catch (error) {
      if (error instanceof ValidationError) throw error;
      if (error instanceof UnsupportedKeyError)
        throw new ValidationError(`Signer ${signerId}: ${error.message}`);
      const reason =
        session.failure?.message ?? (error instanceof KeyServiceCallError ? error.message : 'no answer');
      throw new ServiceUnavailableError(
        `Signer ${signerId}: ${SERVICE_NAMES[config.type]} (${config.type}) could not be reached: ${reason}`,
      );
    }
  }

  private resolve(
    config: HostedSignerConfig,
    session: KeyServiceSession,
  ): Promise<SignerAddresses> | SignerAddresses {
    switch (config.type) {
      case 'vault_transit':
        return addressesOf(this.given(config, 'pubkey'));
      case 'turnkey':
        return addressesOf(this.given(config, 'public_key'));
      case 'cdp': {
        const addresses = addressesOfAccount(shownText(config, 'account_address') ?? '');
        if (!addresses) throw new ValidationError('config.account_address must be an EVM or Solana address');
        return addresses;
      }
      case 'vault':
        return this.vaultKey(config, session);
      case 'aws_kms':
        return this.awsKms(config, session).then(addressesOf);
      case 'google_cloud_kms':
        return this.googleKms(config, session).then(addressesOf);
      case 'azure_key_vault':
        return this.azureKeyVault(config, session).then(addressesOf);
    }
  }

  private given(config: HostedSignerConfig, field: string): PublicKey {
    const key = parseGivenPublicKey(shownText(config, field) ?? '');
    if (key) return key;
    throw new ValidationError(
      `config.${field} must be a secp256k1 public key (hex, 33 or 65 bytes) or an ed25519 one (hex or base64, 32 bytes)`,
    );
  }

  private endpoint(url: string, origin: string): URL {
    const refusal = this.http.refusal(url);
    if (refusal !== null) throw new ValidationError(`${origin} ${refusal}`);
    return new URL(url);
  }

  /** Vault: AppRole login, then the KV v2 read whose `data.data.value` is the key in hex (used once). */
  private async vaultKey(config: HostedSignerConfig, session: KeyServiceSession): Promise<SignerAddresses> {
    const base = this.endpoint(shownText(config, 'address') ?? '', 'config.address');
    const namespace = shownText(config, 'namespace');
    const headers: Record<string, string> = namespace ? { 'x-vault-namespace': namespace } : {};
    const login = await this.callJson(
      session,
      base,
      '/v1/auth/approle/login',
      'POST /v1/auth/approle/login',
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ role_id: config.secrets.role_id, secret_id: config.secrets.secret_id }),
      },
    );
    const token = (login as { auth?: { client_token?: unknown } }).auth?.client_token;
    if (typeof token !== 'string') throw new KeyServiceCallError('the AppRole login gave no token');
    const mount = shownText(config, 'mount_point') ?? 'secret';
    const path = `/v1/${mount}/data/${encodeURIComponent(shownText(config, 'key_name') ?? '')}`;
    const read = await this.callJson(session, base, path, `GET /v1/${mount}/data`, {
      headers: { ...headers, 'x-vault-token': token },
    });
    const value = (read as { data?: { data?: { value?: unknown } } }).data?.data?.value;
    if (typeof value !== 'string' || !/^(?:0x)?[0-9a-fA-F]{64}$/.test(value)) {
      throw new ValidationError(
        'config.key_name must name a KV v2 secret whose value is a 32-byte key in hex',
      );
    }
    const key = Uint8Array.from(Buffer.from(value.replace(/^0x/, ''), 'hex'));
    const addresses = addressesOfKey(key);
    key.fill(0);
    return addresses;
  }

  /** Through the service's own client: the URL policy at connect time, the answer capped. */
  private async callJson(
    session: KeyServiceSession,
    base: URL,
    path: string,
    label: string,
    init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
  ): Promise<Record<string, unknown>> {
    const response = await session.send(new URL(path, base), {
      method: init.method ?? 'GET',
      headers: init.headers ?? {},
      body: init.body,
    });
    let answer: unknown = null;
    try {
      answer = JSON.parse(response.body.toString('utf8'));
    } catch {
      // Named by the status below.
    }
    if (response.status !== 200 || !isPlainObject(answer)) {
      throw new KeyServiceCallError(`${label} answered ${response.status}`);
    }
    return answer;
  }

  /** AWS KMS GetPublicKey: a DER SubjectPublicKeyInfo; the SDK's credential chain signs the call. */
  private async awsKms(config: HostedSignerConfig, session: KeyServiceSession): Promise<PublicKey> {
    const variable = this.env.AWS_ENDPOINT_URL_KMS ? 'AWS_ENDPOINT_URL_KMS' : 'AWS_ENDPOINT_URL';
    const endpoint = this.env[variable];
    if (endpoint) this.endpoint(endpoint, variable);
    const { KMSClient, GetPublicKeyCommand } = await loadAwsKms();
    const client = new KMSClient({
      region: shownText(config, 'region') ?? this.env.AWS_REGION ?? 'us-east-1',
      ...(endpoint ? { endpoint } : {}),
      maxAttempts: 1,
      requestHandler: session.awsRequestHandler(),
    });
    try {
      const answer = await client.send(new GetPublicKeyCommand({ KeyId: shownText(config, 'key_id') }));
      if (!answer.PublicKey) throw new KeyServiceCallError('GetPublicKey answered no public key');
      return fromSpki(answer.PublicKey);
    } catch (error) {
      throw describeSdkError(error, 'GetPublicKey');
    } finally {
      client.destroy();
    }
  }

  /** Google Cloud KMS getPublicKey (REST transport): a PEM SubjectPublicKeyInfo. */
  private async googleKms(config: HostedSignerConfig, session: KeyServiceSession): Promise<PublicKey> {
    const endpoint = this.env.GOOGLE_CLOUD_KMS_ENDPOINT;
    const url = endpoint ? this.endpoint(endpoint, 'GOOGLE_CLOUD_KMS_ENDPOINT') : null;
    const { KeyManagementServiceClient } = await loadGoogleKms();
    const projectId = shownText(config, 'project_id', 'service_account') ?? '';
    const client = new KeyManagementServiceClient({
      fallback: true,
      projectId,
      credentials: {
        client_email: config.secrets['service_account.client_email'],
        private_key: config.secrets['service_account.private_key'],
      },
      clientOptions: { transporterOptions: { fetchImplementation: session.fetch } },
      ...(url
        ? {
            apiEndpoint: url.hostname,
            port: Number(url.port || (url.protocol === 'http:' ? 80 : 443)),
            protocol: url.protocol.replace(':', ''),
          }
        : {}),
    });
    const { location, key_ring_id, key_id, key_version } = config.shown.key as Record<string, string>;
    const name = client.cryptoKeyVersionPath(projectId, location, key_ring_id, key_id, String(key_version));
    try {
      const [answer] = await client.getPublicKey({ name }, { retry: null });
      if (!answer.pem) throw new KeyServiceCallError('getPublicKey answered no PEM');
      return fromSpki(answer.pem);
    } catch (error) {
      throw describeSdkError(error, 'getPublicKey');
    } finally {
      await client.close();
    }
  }

  /** Azure Key Vault getKey: a JWK (`P-256K` or Ed25519). */
  private async azureKeyVault(config: HostedSignerConfig, session: KeyServiceSession): Promise<PublicKey> {
    const vaultUrl = this.endpoint(shownText(config, 'vault_url') ?? '', 'config.vault_url');
    const [{ KeyClient }, identity] = await Promise.all([loadAzureKeys(), loadAzureIdentity()]);
    const clientId = shownText(config, 'client_id');
    const authorityHost = this.env.AZURE_AUTHORITY_HOST ?? 'https://login.microsoftonline.com';
    const auth = shownText(config, 'auth_type');
    // The service's own identity (accepted from the configuration file only, unless the operator
    // allows it through the API): its endpoints are the operator's, so capped without the URL policy.
    const identityOptions = { httpClient: session.azureHttpClient(true), retryOptions: { maxRetries: 0 } };
    const credential: TokenCredential =
      auth === 'managed_identity'
        ? new identity.ManagedIdentityCredential({ ...identityOptions, ...(clientId ? { clientId } : {}) })
        : auth === 'workload_identity'
          ? new identity.WorkloadIdentityCredential({
              ...identityOptions,
              tenantId: shownText(config, 'tenant_id') ?? '',
              clientId,
              tokenFilePath: config.secrets.federated_token_file,
              authorityHost,
            })
          : {
              // The client-credentials grant, through the service's own outbound client (and so
              // the URL policy); @azure/identity's own refuses a non-https authority.
              getToken: (scopes) => this.azureToken(session, config, authorityHost, scopes),
            };
    // The challenge's resource is always verified: a vault cannot ask for a token meant for another.
    const client = new KeyClient(vaultUrl.href.replace(/\/$/, ''), credential, {
      retryOptions: { maxRetries: 0 },
      httpClient: session.azureHttpClient(),
      // An http vault_url is only possible for a host of KEY_SERVICE_ALLOWED_HOSTS: the operator's choice.
      allowInsecureConnection: vaultUrl.protocol === 'http:',
    });
    try {
      const key = await client.getKey(shownText(config, 'key_name') ?? '', {
        version: shownText(config, 'key_version'),
      });
      return fromJwk(key.key ?? {});
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('The challenge resource')) {
        throw new KeyServiceCallError('the vault asked for a token meant for another resource');
      }
      throw describeSdkError(error, 'getKey');
    }
  }

  private async azureToken(
    session: KeyServiceSession,
    config: HostedSignerConfig,
    authority: string,
    scopes: string | string[],
  ): Promise<AccessToken> {
    const tenant = encodeURIComponent(shownText(config, 'tenant_id') ?? '');
    const base = this.endpoint(authority, 'AZURE_AUTHORITY_HOST');
    const answer = await this.callJson(session, base, `/${tenant}/oauth2/v2.0/token`, 'the token endpoint', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: shownText(config, 'client_id') ?? '',
        client_secret: config.secrets.client_secret ?? '',
        scope: [scopes].flat().join(' '),
      }).toString(),
    });
    if (typeof answer.access_token !== 'string')
      throw new KeyServiceCallError('the token endpoint gave no token');
    const seconds = typeof answer.expires_in === 'number' ? answer.expires_in : 300;
    return { token: answer.access_token, expiresOnTimestamp: Date.now() + seconds * 1000 };
  }
}

/** Named by the operation and the status: the library's own text may quote a request. */
function describeSdkError(error: unknown, operation: string): Error {
  if (error instanceof UnsupportedKeyError || error instanceof KeyServiceCallError) return error;
  const failure = error as { $metadata?: { httpStatusCode?: number }; statusCode?: number; code?: unknown };
  // AWS's SDK, Azure's, then Google's REST transport (the HTTP status in `code`, or the gRPC one).
  const code = typeof failure.code === 'number' && failure.code >= 100 ? failure.code : undefined;
  const status = failure.$metadata?.httpStatusCode ?? failure.statusCode ?? code;
  if (status !== undefined) return new KeyServiceCallError(`${operation} answered ${status}`);
  if (typeof failure.code === 'number') {
    return new KeyServiceCallError(`${operation} failed with gRPC status ${failure.code}`);
  }
  return new KeyServiceCallError(`${operation} failed`);
}
