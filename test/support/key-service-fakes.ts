import { Keypair } from '@stellar/stellar-base';
import { base58 } from '@scure/base';
import { createECDH, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import type http from 'node:http';
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

/** A fake whose calls a test counts; `answerStatus` makes it answer that status to everything. */
abstract class KeyServiceFake extends LoopbackServer {
  calls: string[] = [];
  answerStatus: number | null = null;

  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    void bodyOf(req).then((body) => {
      if (this.answerStatus !== null) {
        return json(res, this.answerStatus, {
          error: { code: this.answerStatus, message: 'unavailable', status: 'UNAVAILABLE' },
        });
      }
      this.calls.push(`${req.method} ${req.url}`);
      this.answer(req, body, res);
    });
  }

  protected abstract answer(req: http.IncomingMessage, body: string, res: http.ServerResponse): void;
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
  readonly tenantId = 'tenant-1';
  readonly clientId = 'client-1';
  readonly clientSecret = secrets.add(`azure-${randomBytes(12).toString('hex')}`);
  private readonly token = secrets.add(`eyJ${randomBytes(16).toString('hex')}`);
  readonly keys = new Map<string, Record<string, unknown>>();

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
    if (!key) return json(res, 404, { error: { code: 'NotFound' } });
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      res.setHeader(
        'www-authenticate',
        `Bearer authorization="${this.url(`/${this.tenantId}`)}", resource="https://vault.azure.net"`,
      );
      return json(res, 401, { error: { code: 'Unauthorized' } });
    }
    const jwk = this.keys.get(key[1]);
    if (!jwk) return json(res, 404, { error: { code: 'KeyNotFound' } });
    json(res, 200, { key: { kid: this.url(`/keys/${key[1]}/1`), ...jwk }, attributes: { enabled: true } });
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
