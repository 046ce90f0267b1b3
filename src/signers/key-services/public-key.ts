import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { createPublicKey, ECDH, type JsonWebKey } from 'node:crypto';
import { toChecksumAddress, type SignerAddresses } from '../../catalogue/catalogue.service';

/** A public key the service can derive addresses from (docs/reference/networks-and-signers.md#14-addresses): the curve decides the networks. */
export type PublicKey =
  | { readonly curve: 'secp256k1'; readonly point: Uint8Array }
  | { readonly curve: 'ed25519'; readonly bytes: Uint8Array };

/** Thrown when a key service's key is not one the service can use; the message names the curve. */
export class UnsupportedKeyError extends Error {}

type StellarBase = typeof import('@stellar/stellar-base');
let stellarBase: StellarBase | undefined;

/** secp256k1 signs for evm; ed25519 for solana and stellar. */
export function addressesOf(key: PublicKey): SignerAddresses {
  if (key.curve === 'secp256k1') {
    const uncompressed = ECDH.convertKey(key.point, 'secp256k1', undefined, undefined, 'uncompressed');
    const hash = keccak_256((uncompressed as Buffer).subarray(1));
    return { evm: toChecksumAddress(bytesToHex(hash.subarray(-20))) };
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  stellarBase ??= require('@stellar/stellar-base') as StellarBase;
  return {
    solana: base58.encode(key.bytes),
    stellar: stellarBase.StrKey.encodeEd25519PublicKey(Buffer.from(key.bytes)),
  };
}

/** A JWK of a secp256k1 key (`crv` `secp256k1`, or Azure's `P-256K`) or an Ed25519 one. */
export function fromJwk(jwk: {
  kty?: string;
  crv?: string;
  x?: Uint8Array | string;
  y?: Uint8Array | string;
}): PublicKey {
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
    const input = typeof key === 'string' ? key : Buffer.from(key);
    jwk = createPublicKey(
      typeof input === 'string' ? { key: input, format: 'pem' } : { key: input, format: 'der', type: 'spki' },
    ).export({ format: 'jwk' });
  } catch {
    throw new UnsupportedKeyError('the public key is not a SubjectPublicKeyInfo of secp256k1 or Ed25519');
  }
  return fromJwk(jwk);
}

/**
 * A public key given in a config: hex of a secp256k1 point (33 or 65 bytes) or of an ed25519 key
 * (32 bytes), base64 of an ed25519 key (Vault transit), or a PEM SubjectPublicKeyInfo. Null when
 * it is none of them.
 */
export function parseGivenPublicKey(text: string): PublicKey | null {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) {
    try {
      return fromSpki(trimmed);
    } catch {
      return null;
    }
  }
  const hex = trimmed.replace(/^0x/i, '');
  const bytes = /^[0-9a-fA-F]+$/.test(hex)
    ? Buffer.from(hex, 'hex')
    : /^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)
      ? Buffer.from(trimmed, 'base64')
      : Buffer.alloc(0);
  if (bytes.length === 32) return { curve: 'ed25519', bytes };
  if (bytes.length === 33 || bytes.length === 65) {
    try {
      ECDH.convertKey(bytes, 'secp256k1');
      return { curve: 'secp256k1', point: bytes };
    } catch {
      return null;
    }
  }
  return null;
}

/** CDP's `account_address`: an EVM address, or a Solana one (base58 of 32 bytes). */
export function addressesOfAccount(address: string): SignerAddresses | null {
  if (/^0x[0-9a-fA-F]{40}$/.test(address)) return { evm: toChecksumAddress(address) };
  try {
    if (base58.decode(address).length === 32) return { solana: address };
  } catch {
    return null;
  }
  return null;
}
