import { Keypair } from '@stellar/stellar-base';
import { base58 } from '@scure/base';
import { createECDH, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import type http from 'node:http';
import type { LookupAddress } from 'node:dns';
import { DnsResolver } from '../../src/common/security/dns-resolver';
import { privateKeyToAddress } from 'viem/accounts';
import { LoopbackServer } from './loopback-server';
import { secrets } from './secrets';

/** A secp256k1 key a test holds: its public key as a key service gives it, and its EVM address. */
export class Secp256k1TestKey {
  readonly point = createECDH('secp256k1');
  readonly evm: string;

  constructor(readonly privateKey = randomBytes(32)) {
    this.point.setPrivateKey(this.privateKey);
    this.evm = privateKeyToAddress(`0x${this.privateKey.toString('hex')}`);
  }

  get hex(): string {
    return this.privateKey.toString('hex');
  }

  /** x and y of the public key (32 bytes each). */
  get xy(): { x: Buffer; y: Buffer } {
    const uncompressed = this.point.getPublicKey();
    return { x: uncompressed.subarray(1, 33), y: uncompressed.subarray(33) };
  }

  spki(): Buffer {
    const { x, y } = this.xy;
    const jwk = { kty: 'EC', crv: 'secp256k1', x: x.toString('base64url'), y: y.toString('base64url') };
    return createPublicKey({ key: jwk, format: 'jwk' }).export({ type: 'spki', format: 'der' });
  }

  addresses(): { evm: string } {
    return { evm: this.evm };
  }
}

/** An ed25519 key a test holds, with its Solana and Stellar addresses. */
export class Ed25519TestKey {
  readonly publicKey: Buffer;

  constructor(readonly seed = randomBytes(32)) {
    const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), this.seed]);
    const key = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
    const jwk = createPublicKey(key).export({ format: 'jwk' });
    this.publicKey = Buffer.from(jwk.x ?? '', 'base64url');
  }

  spki(): Buffer {
    return Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), this.publicKey]);
  }

  addresses(): { solana: string; stellar: string } {
    return {
      solana: base58.encode(this.publicKey),
      stellar: Keypair.fromRawEd25519Seed(this.seed).publicKey(),
    };
  }
}

const pem = (der: Buffer): string =>
  `-----BEGIN PUBLIC KEY-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END PUBLIC KEY-----\n`;

async function bodyOf(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

function json(res: http.ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));
}

/**
 * Makes the service's resolver (DnsResolver, which the key services' connections use) answer
 * 127.0.0.1 for every name under `.test`, so that a fake can be reached by a name; other names
 * resolve as usual. Restore with `mockRestore()`.
 */
export function resolveTestNamesToLoopback(): jest.SpyInstance {
  const original = DnsResolver.prototype.lookup;
  return jest.spyOn(DnsResolver.prototype, 'lookup').mockImplementation(function (
    this: DnsResolver,
    hostname: string,
    callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
  ) {
    if (hostname.endsWith('.test')) return callback(null, [{ address: '127.0.0.1', family: 4 }]);
    return original.call(this, hostname, callback);
  });
}

/**
 * A fake whose calls a test counts; `answerStatus` makes it answer that status to everything,
 * `answerBytes` a 200 of that many bytes (streamed, never held) to everything.
 */
abstract class KeyServiceFake extends LoopbackServer {
  calls: string[] = [];
  answerStatus: number | null = null;
  answerBytes: number | null = null;
  /** The Authorization headers it was sent. */
  authorizations: string[] = [];

  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    void bodyOf(req).then((body) => {
      if (req.headers.authorization) this.authorizations.push(req.headers.authorization);
      if (this.answerStatus !== null) {
        return json(res, this.answerStatus, {
          error: { code: this.answerStatus, message: 'unavailable', status: 'UNAVAILABLE' },
        });
      }
      if (this.answerBytes !== null) return streamBytes(res, this.answerBytes);
      this.calls.push(`${req.method} ${req.url}`);
      this.answer(req, body, res);
    });
  }

  protected abstract answer(req: http.IncomingMessage, body: string, res: http.ServerResponse): void;
}

/** A JSON-looking 200 of `size` bytes, written as the reader takes it; the fake stops when it hangs up. */
function streamBytes(res: http.ServerResponse, size: number): void {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"pad":"');
  let left = size;
  const pump = (): void => {
    while (left > 0 && !res.destroyed) {
      const piece = chunk.subarray(0, Math.min(chunk.length, left));
      left -= piece.length;
      if (!res.write(piece)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end('"}');
  };
  res.on('error', () => undefined);
  pump();
}

/**
 * AWS KMS over its JSON 1.1 protocol (POST /, X-Amz-Target TrentService.<Operation>):
 * GetPublicKey answers the DER SubjectPublicKeyInfo in base64 and the key spec.
 */
export class AwsKmsFake extends KeyServiceFake {
  readonly keys = new Map<string, { spki: Buffer; spec: string }>();

  protected answer(req: http.IncomingMessage, body: string, res: http.ServerResponse): void {
    const type = 'application/x-amz-json-1.1';
    if (req.headers['x-amz-target'] !== 'TrentService.GetPublicKey' || !req.headers.authorization) {
      return json(res, 400, { __type: 'UnknownOperationException' }, type);
    }
    const { KeyId } = JSON.parse(body) as { KeyId: string };
    const key = this.keys.get(KeyId);
    if (!key) return json(res, 400, { __type: 'NotFoundException', message: 'Key not found' }, type);
    json(
      res,
      200,
      { KeyId, PublicKey: key.spki.toString('base64'), KeySpec: key.spec, KeyUsage: 'SIGN_VERIFY' },
      type,
    );
  }
}

/** Vault: AppRole login (POST /v1/auth/approle/login), then a KV v2 read whose data.data.value is the key. */
export class VaultFake extends KeyServiceFake {
  readonly roleId = secrets.add(`role-${randomBytes(8).toString('hex')}`);
  readonly secretId = secrets.add(`secret-${randomBytes(12).toString('hex')}`);
  private readonly token = secrets.add(`hvs.${randomBytes(12).toString('hex')}`);
  readonly kv = new Map<string, string>();

  protected answer(req: http.IncomingMessage, body: string, res: http.ServerResponse): void {
    if (req.method === 'POST' && req.url === '/v1/auth/approle/login') {
      const login = JSON.parse(body) as { role_id?: string; secret_id?: string };
      if (login.role_id !== this.roleId || login.secret_id !== this.secretId) {
        return json(res, 400, { errors: ['invalid role or secret ID'] });
      }
      return json(res, 200, { auth: { client_token: this.token, lease_duration: 3600 } });
    }
    const read = /^\/v1\/([^/]+)\/data\/(.+)$/.exec(req.url ?? '');
    if (req.method !== 'GET' || !read) return json(res, 404, { errors: [] });
    if (req.headers['x-vault-token'] !== this.token) return json(res, 403, { errors: ['permission denied'] });
    const value = this.kv.get(`${read[1]}/${decodeURIComponent(read[2])}`);
    if (value === undefined) return json(res, 404, { errors: [] });
    json(res, 200, { data: { data: { value }, metadata: { version: 1 } } });
  }
}

/** Google Cloud KMS REST: GET /v1/{cryptoKeyVersion name}/publicKey answers the PEM. */
export class GoogleKmsFake extends KeyServiceFake {
  readonly keys = new Map<string, { spki: Buffer; algorithm: string }>();

  protected answer(req: http.IncomingMessage, _body: string, res: http.ServerResponse): void {
    const match = /^\/v1\/(projects\/[^?]+)\/publicKey/.exec(req.url ?? '');
    if (!req.headers.authorization?.startsWith('Bearer ')) return json(res, 401, { error: { code: 401 } });
    const key = match ? this.keys.get(decodeURIComponent(match[1])) : undefined;
    if (!match || !key)
      return json(res, 404, { error: { code: 404, message: 'not found', status: 'NOT_FOUND' } });
    json(res, 200, { name: match[1], pem: pem(key.spki), algorithm: key.algorithm, protectionLevel: 'HSM' });
  }
}

/**
 * Azure Key Vault and its token endpoint: GET /keys/{name}[/{version}] answers 401 with the
 * challenge until a bearer token comes, then the key as a JWK; POST /{tenant}/oauth2/v2.0/token
 * answers a token to the client credentials it was given.
 */
export class AzureKeyVaultFake extends KeyServiceFake {
  /** The vault's host: a name (see resolveTestNamesToLoopback), since the challenge's resource must match it. */
  static readonly HOST = 'keys.vault.test';
  /** What its challenge asks a token for: the vault's own domain unless a test makes it ask for another. */
  challengeResource = 'http://vault.test';
  readonly tenantId = 'tenant-1';
  readonly clientId = 'client-1';
  readonly clientSecret = secrets.add(`azure-${randomBytes(12).toString('hex')}`);
  private readonly token = secrets.add(`eyJ${randomBytes(16).toString('hex')}`);
  readonly keys = new Map<string, Record<string, unknown>>();
  /** Tokens of another issuer (a managed identity) that it also takes. */
  readonly acceptedTokens = new Set<string>();

  /** The vault's URL, by its name. */
  vaultUrl(): string {
    return `http://${AzureKeyVaultFake.HOST}:${this.port}/`;
  }

  protected answer(req: http.IncomingMessage, body: string, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', this.url());
    if (req.method === 'POST' && url.pathname === `/${this.tenantId}/oauth2/v2.0/token`) {
      const form = new URLSearchParams(body);
      if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret) {
        return json(res, 401, { error: 'invalid_client' });
      }
      return json(res, 200, {
        token_type: 'Bearer',
        expires_in: 3600,
        ext_expires_in: 3600,
        access_token: this.token,
      });
    }
    const key = /^\/keys\/([^/]+)/.exec(url.pathname);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!key) return json(res, 404, { error: { code: 'NotFound' } });
    if (bearer !== this.token && !this.acceptedTokens.has(bearer ?? '')) {
      res.setHeader(
        'www-authenticate',
        `Bearer authorization="${this.url(`/${this.tenantId}`)}", resource="${this.challengeResource}"`,
      );
      return json(res, 401, { error: { code: 'Unauthorized' } });
    }
    const jwk = this.keys.get(key[1]);
    if (!jwk) return json(res, 404, { error: { code: 'KeyNotFound' } });
    json(res, 200, { key: { kid: this.url(`/keys/${key[1]}/1`), ...jwk }, attributes: { enabled: true } });
  }
}

/**
 * An App Service managed-identity endpoint (IDENTITY_ENDPOINT, IDENTITY_HEADER), as @azure/identity
 * reads it: GET ?resource=...&api-version=2019-08-01 with the X-IDENTITY-HEADER answers a token.
 */
export class ManagedIdentityFake extends KeyServiceFake {
  readonly header = secrets.add(`mi-${randomBytes(8).toString('hex')}`);
  readonly token = secrets.add(`eyJmi${randomBytes(16).toString('hex')}`);
  /** The resource of each token request. */
  readonly resources: string[] = [];

  env(): Record<string, string> {
    return { IDENTITY_ENDPOINT: this.url('/msi/token'), IDENTITY_HEADER: this.header };
  }

  protected answer(req: http.IncomingMessage, _body: string, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', this.url());
    if (url.pathname !== '/msi/token' || req.headers['x-identity-header'] !== this.header) {
      return json(res, 400, { error: 'invalid_request' });
    }
    this.resources.push(url.searchParams.get('resource') ?? '');
    json(res, 200, {
      access_token: this.token,
      expires_on: String(Math.floor(Date.now() / 1000) + 3600),
      resource: url.searchParams.get('resource'),
      token_type: 'Bearer',
    });
  }
}

export const azureJwk = {
  secp256k1: (key: Secp256k1TestKey) => ({
    kty: 'EC',
    crv: 'P-256K',
    key_ops: ['sign', 'verify'],
    x: key.xy.x.toString('base64url'),
    y: key.xy.y.toString('base64url'),
  }),
  ed25519: (key: Ed25519TestKey) => ({ kty: 'OKP', crv: 'Ed25519', x: key.publicKey.toString('base64url') }),
};

/** A service-account private key for Google's client (it signs its own JWT with it). */
export function googleServiceAccountKey(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return secrets.add(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
}
