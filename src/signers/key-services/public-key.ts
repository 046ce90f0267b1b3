import { base58 } from '@scure/base';
import { createPublicKey, ECDH, type JsonWebKey } from 'node:crypto';
import {
  evmAddressOfPoint,
  stellarAddressOfPublicKey,
  toChecksumAddress,
  type SignerAddresses,
} from '../../catalogue';

/** The curve decides the networks (docs/reference/networks-and-signers.md#14-addresses). */
export type PublicKey =
  | { readonly curve: 'secp256k1'; readonly point: Uint8Array }
  | { readonly curve: 'ed25519'; readonly bytes: Uint8Array };

export class UnsupportedKeyError extends Error {}

export function addressesOf(key: PublicKey): SignerAddresses {
  if (key.curve === 'ed25519') {
    return { solana: base58.encode(key.bytes), stellar: stellarAddressOfPublicKey(key.bytes) };
  }
  const uncompressed = ECDH.convertKey(key.point, 'secp256k1', undefined, undefined, 'uncompressed');
  return { evm: evmAddressOfPoint(uncompressed as Buffer) };
}

type Jwk = { kty?: string; crv?: string; x?: Uint8Array | string; y?: Uint8Array | string };

/** A JWK of a secp256k1 key (`crv` `secp256k1`, or Azure's `P-256K`) or an Ed25519 one. */
export function fromJwk(jwk: Jwk): PublicKey {
  const bytes = (value: Uint8Array | string | undefined): Buffer =>
    typeof value === 'string' ? Buffer.from(value, 'base64url') : Buffer.from(value ?? []);
  if ((jwk.crv === 'P-256K' || jwk.crv === 'secp256k1') && jwk.x !== undefined && jwk.y !== undefined) {
    return { curve: 'secp256k1', point: Buffer.concat([Buffer.of(4), bytes(jwk.x), bytes(jwk.y)]) };
  }
  if (jwk.crv === 'Ed25519' && jwk.x !== undefined) return { curve: 'ed25519', bytes: bytes(jwk.x) };
  throw new UnsupportedKeyError(
    `the key's curve ${jwk.crv ?? jwk.kty ?? 'unknown'} is not secp256k1 or Ed25519`,
  );
}

/** A DER SubjectPublicKeyInfo (AWS KMS) or its PEM form (Google Cloud KMS, Vault). */
export function fromSpki(key: Uint8Array | string): PublicKey {
  let jwk: JsonWebKey;
  try {
    jwk = createPublicKey(
      typeof key === 'string'
        ? { key, format: 'pem' }
        : { key: Buffer.from(key), format: 'der', type: 'spki' },
    ).export({ format: 'jwk' });
  } catch {
    throw new UnsupportedKeyError('the public key is not a SubjectPublicKeyInfo of secp256k1 or Ed25519');
  }
  return fromJwk(jwk);
}

export function parseGivenPublicKey(text: string): PublicKey | null {
  const trimmed = text.trim();
  const hex = trimmed.replace(/^0x/i, '');
  const bytes = /^[0-9a-fA-F]+$/.test(hex)
    ? Buffer.from(hex, 'hex')
    : /^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)
      ? Buffer.from(trimmed, 'base64')
      : Buffer.alloc(0);
  try {
    if (trimmed.startsWith('-----BEGIN')) return fromSpki(trimmed);
    if (bytes.length === 32) return { curve: 'ed25519', bytes };
    if (bytes.length !== 33 && bytes.length !== 65) return null;
    ECDH.convertKey(bytes, 'secp256k1');
    return { curve: 'secp256k1', point: bytes };
  } catch {
    return null;
  }
}

/** CDP's `account_address`: an EVM address, or a Solana one (base58 of 32 bytes). */
export function addressesOfAccount(address: string): SignerAddresses | null {
  if (/^0x[0-9a-fA-F]{40}$/.test(address)) return { evm: toChecksumAddress(address) };
  try {
    return base58.decode(address).length === 32 ? { solana: address } : null;
  } catch {
    return null;
  }
}
