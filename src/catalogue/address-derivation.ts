import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { createECDH } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { encodeStrKey } from '../common/validation/stellar-strkey';
import { NETWORK_TYPES, type NetworkType, type SignerType } from './catalogue.types';

export const KEY_LENGTH_BYTES = 32;

/**
 * The shape of a signer's key material, which decides the networks it can sign for.
 * A raw 32-byte secret is both a secp256k1 private key (when it is a valid scalar) and an ed25519 seed
 * (RFC 8032, any 32 bytes), so one key serves EVM, Solana and Stellar.
 */
export type KeyKind = 'raw-32-byte-seed';

export const KEY_KIND_BY_SIGNER_TYPE: Readonly<Record<SignerType, KeyKind>> = {
  plain: 'raw-32-byte-seed',
  // An Ethereum v3 keystore decrypts to a raw 32-byte secp256k1 private key.
  local: 'raw-32-byte-seed',
};

export const NETWORK_TYPES_BY_KEY_KIND: Readonly<Record<KeyKind, readonly NetworkType[]>> = {
  'raw-32-byte-seed': NETWORK_TYPES,
};

export function keyKindSuits(kind: KeyKind, networkType: NetworkType): boolean {
  return NETWORK_TYPES_BY_KEY_KIND[kind].includes(networkType);
}

/** Non-zero and below the curve order: the only keys secp256k1 (and so EVM) accepts. */
export function isValidSecp256k1PrivateKey(key: Uint8Array): boolean {
  return key.length === KEY_LENGTH_BYTES && secp256k1.utils.isValidSecretKey(key);
}

export function deriveAddress(networkType: NetworkType, key: Uint8Array): string {
  switch (networkType) {
    case 'evm':
      return evmAddress(key);
    case 'solana':
      return solanaAddress(key);
    case 'stellar':
      return stellarAddress(key);
  }
}

export function addressesOfKey(key: Uint8Array): Partial<Record<NetworkType, string>> {
  return Object.fromEntries(NETWORK_TYPES.map((type) => [type, deriveAddress(type, key)]));
}

export function evmAddress(privateKey: Uint8Array): string {
  // OpenSSL's secp256k1 (node:crypto) derives the public key about twice as fast as the pure-JS
  // curve, and a create with a new signer pays for it on the request path.
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(privateKey);
  return evmAddressOfPoint(ecdh.getPublicKey());
}

/** The last 20 bytes of keccak-256 over the 64-byte X||Y of the uncompressed point (without 0x04). */
export function evmAddressOfPoint(uncompressed: Uint8Array): string {
  return toChecksumAddress(bytesToHex(keccak_256(uncompressed.subarray(1)).subarray(-20)));
}

/** EIP-55: upper-case each hex letter whose nibble in keccak-256(lower-case hex address) is >= 8. */
export function toChecksumAddress(address: string): string {
  const lower = address.replace(/^0x/i, '').toLowerCase();
  const hashHex = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let checksummed = '0x';
  for (let i = 0; i < lower.length; i++) {
    checksummed += Number.parseInt(hashHex[i], 16) >= 8 ? lower[i].toUpperCase() : lower[i];
  }
  return checksummed;
}

export function ed25519PublicKey(seed: Uint8Array): Uint8Array {
  return ed25519.getPublicKey(seed);
}

export function solanaAddress(seed: Uint8Array): string {
  return base58.encode(ed25519PublicKey(seed));
}

export function stellarAddress(seed: Uint8Array): string {
  return stellarAddressOfPublicKey(ed25519PublicKey(seed));
}

export function stellarAddressOfPublicKey(publicKey: Uint8Array): string {
  return encodeStrKey('ed25519PublicKey', publicKey);
}
