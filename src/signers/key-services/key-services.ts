import { Inject, Injectable } from '@nestjs/common';
import type { AccessToken, TokenCredential } from '@azure/identity';
import { ServiceUnavailableError, ValidationError } from '../../common/errors/domain-errors';
import { lazyRequire } from '../../common/modules/lazy-require';
import { DnsResolver, loadUndici, PolicyAgent } from '../../common/security/policy-agent';
import { checkUrl } from '../../common/security/url-policy';
import { isPlainObject } from '../../common/validation/field-rules';
import { addressesOfKey, type SignerAddresses } from '../../catalogue/catalogue.service';
import type { AppConfig, UrlPolicyConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { shownText, type HostedSignerConfig } from './hosted-signer-config';
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

const CALL_TIMEOUT_MS = 10_000;

/** `reason` never quotes a secret. */
class KeyServiceCallError extends Error {}

/**
 * The addresses of a hosted signer (docs/reference/kms-signers.md): from the public key its config
 * gives, else from one call to its key service. Every endpoint passes the key-service URL policy first.
 */
@Injectable()
export class KeyServices {
  private readonly env: AppConfig['secretsEnv'];
  private readonly policy: UrlPolicyConfig;
  private readonly agents: { blocking: PolicyAgent; private: PolicyAgent };

  constructor(@Inject(APP_CONFIG) config: AppConfig, resolver: DnsResolver) {
    this.env = config.secretsEnv;
    this.policy = config.keyServiceUrlPolicy;
    this.agents = {
      blocking: new PolicyAgent({ ...this.policy, allowedHosts: [] }, resolver, { connections: 2 }),
      private: new PolicyAgent({ allowedHosts: [], blockPrivateIps: false }, resolver, { connections: 2 }),
    };
  }

  async addresses(signerId: string, config: HostedSignerConfig): Promise<SignerAddresses> {
    try {
      return await this.resolve(config);
    } catch (error) {
      if (error instanceof ValidationError) throw error;
      if (error instanceof UnsupportedKeyError)
        throw new ValidationError(`Signer ${signerId}: ${error.message}`);
      const reason = error instanceof KeyServiceCallError ? error.message : 'no answer';
      throw new ServiceUnavailableError(
        `Signer ${signerId}: ${SERVICE_NAMES[config.type]} (${config.type}) could not be reached: ${reason}`,
      );
    }
  }

  private resolve(config: HostedSignerConfig): Promise<SignerAddresses> | SignerAddresses {
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
        return this.vaultKey(config);
      case 'aws_kms':
        return this.awsKms(config).then(addressesOf);
      case 'google_cloud_kms':
        return this.googleKms(config).then(addressesOf);
      case 'azure_key_vault':
        return this.azureKeyVault(config).then(addressesOf);
    }
  }

  private given(config: HostedSignerConfig, field: string): PublicKey {
    const key = parseGivenPublicKey(shownText(config, field) ?? '');
    if (key) return key;
    throw new ValidationError(
      `config.${field} must be a secp256k1 public key (hex, 33 or 65 bytes) or an ed25519 one (hex or base64, 32 bytes)`,
    );
  }

  /** A host on the allow list may be private. */
  private onList(url: string): boolean {
    const { allowedHosts } = this.policy;
    return allowedHosts.length > 0 && checkUrl(url, { allowedHosts, blockPrivateIps: false }) === null;
  }

  private endpoint(url: string, origin: string): URL {
    const refusal = this.onList(url) ? null : checkUrl(url, { ...this.policy, allowedHosts: [] });
    if (refusal !== null) throw new ValidationError(`${origin} ${refusal}`);
    return new URL(url);
  }

  /** Vault: AppRole login, then the KV v2 read whose `data.data.value` is the key in hex (used once). */
  private async vaultKey(config: HostedSignerConfig): Promise<SignerAddresses> {
    const base = this.endpoint(shownText(config, 'address') ?? '', 'config.address');
    const namespace = shownText(config, 'namespace');
    const headers: Record<string, string> = namespace ? { 'x-vault-namespace': namespace } : {};
    const login = await this.callJson(base, '/v1/auth/approle/login', 'POST /v1/auth/approle/login', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ role_id: config.secrets.role_id, secret_id: config.secrets.secret_id }),
    });
    const token = (login as { auth?: { client_token?: unknown } }).auth?.client_token;
    if (typeof token !== 'string') throw new KeyServiceCallError('the AppRole login gave no token');
    const mount = shownText(config, 'mount_point') ?? 'secret';
    const path = `/v1/${mount}/data/${encodeURIComponent(shownText(config, 'key_name') ?? '')}`;
    const read = await this.callJson(base, path, `GET /v1/${mount}/data`, {
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

  /** Through the service's own client, so the URL policy applies to every address. */
  private async callJson(
    base: URL,
    path: string,
    label: string,
    init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
  ): Promise<Record<string, unknown>> {
    const [{ request }, dispatcher] = await Promise.all([
      loadUndici(),
      (this.onList(base.href) ? this.agents.private : this.agents.blocking).get(),
    ]);
    const response = await request(new URL(path, base), {
      ...init,
      dispatcher,
      headersTimeout: CALL_TIMEOUT_MS,
      bodyTimeout: CALL_TIMEOUT_MS,
    });
    const answer: unknown = await response.body.json().catch(() => null);
    if (response.statusCode !== 200 || !isPlainObject(answer)) {
      throw new KeyServiceCallError(`${label} answered ${response.statusCode}`);
    }
    return answer;
  }

  /** AWS KMS GetPublicKey: a DER SubjectPublicKeyInfo; the SDK's credential chain signs the call. */
  private async awsKms(config: HostedSignerConfig): Promise<PublicKey> {
    const variable = this.env.AWS_ENDPOINT_URL_KMS ? 'AWS_ENDPOINT_URL_KMS' : 'AWS_ENDPOINT_URL';
    const endpoint = this.env[variable];
    if (endpoint) this.endpoint(endpoint, variable);
    const { KMSClient, GetPublicKeyCommand } = await loadAwsKms();
    const client = new KMSClient({
      region: shownText(config, 'region') ?? this.env.AWS_REGION ?? 'us-east-1',
      ...(endpoint ? { endpoint } : {}),
      maxAttempts: 1,
    });
    try {
      const answer = await client.send(new GetPublicKeyCommand({ KeyId: shownText(config, 'key_id') }), {
        abortSignal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
      if (!answer.PublicKey) throw new KeyServiceCallError('GetPublicKey answered no public key');
      return fromSpki(answer.PublicKey);
    } catch (error) {
      throw describeSdkError(error, 'GetPublicKey');
    } finally {
      client.destroy();
    }
  }

  /** Google Cloud KMS getPublicKey (REST transport): a PEM SubjectPublicKeyInfo. */
  private async googleKms(config: HostedSignerConfig): Promise<PublicKey> {
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
      const [answer] = await client.getPublicKey({ name }, { timeout: CALL_TIMEOUT_MS, retry: null });
      if (!answer.pem) throw new KeyServiceCallError('getPublicKey answered no PEM');
      return fromSpki(answer.pem);
    } catch (error) {
      throw describeSdkError(error, 'getPublicKey');
    } finally {
      await client.close();
    }
  }

  /** Azure Key Vault getKey: a JWK (`P-256K` or Ed25519). */
  private async azureKeyVault(config: HostedSignerConfig): Promise<PublicKey> {
    const vaultUrl = this.endpoint(shownText(config, 'vault_url') ?? '', 'config.vault_url');
    const [{ KeyClient }, identity] = await Promise.all([loadAzureKeys(), loadAzureIdentity()]);
    const clientId = shownText(config, 'client_id');
    const authorityHost = this.env.AZURE_AUTHORITY_HOST ?? 'https://login.microsoftonline.com';
    const auth = shownText(config, 'auth_type');
    const credential: TokenCredential =
      auth === 'managed_identity'
        ? new identity.ManagedIdentityCredential(clientId ? { clientId } : {})
        : auth === 'workload_identity'
          ? new identity.WorkloadIdentityCredential({
              tenantId: shownText(config, 'tenant_id') ?? '',
              clientId,
              tokenFilePath: config.secrets.federated_token_file,
              authorityHost,
            })
          : {
              // The client-credentials grant, through the service's own outbound client (and so
              // the URL policy); @azure/identity's own refuses a non-https authority.
              getToken: (scopes) => this.azureToken(config, authorityHost, scopes),
            };
    const client = new KeyClient(vaultUrl.href.replace(/\/$/, ''), credential, {
      retryOptions: { maxRetries: 0 },
      // An http vault_url (a private deployment, a test) is the operator's choice; the policy checked it.
      allowInsecureConnection: vaultUrl.protocol === 'http:',
      disableChallengeResourceVerification: this.env.AZURE_AUTHORITY_HOST !== undefined,
    });
    try {
      const key = await client.getKey(shownText(config, 'key_name') ?? '', {
        version: shownText(config, 'key_version'),
        abortSignal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
      return fromJwk(key.key ?? {});
    } catch (error) {
      throw describeSdkError(error, 'getKey');
    }
  }

  private async azureToken(
    config: HostedSignerConfig,
    authority: string,
    scopes: string | string[],
  ): Promise<AccessToken> {
    const tenant = encodeURIComponent(shownText(config, 'tenant_id') ?? '');
    const base = this.endpoint(authority, 'AZURE_AUTHORITY_HOST');
    const answer = await this.callJson(base, `/${tenant}/oauth2/v2.0/token`, 'the token endpoint', {
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
