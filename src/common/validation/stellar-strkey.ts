import { base32 } from '@scure/base';

/**
 * Stellar's StrKey (SEP-23) for the two kinds the service reads or writes: an account (G...) and a
 * Soroban contract (C...), each a version byte, 32 bytes and a CRC16-XModem checksum in base32.
 * Written here rather than taken from @stellar/stellar-base, whose XDR definitions, loaded with it,
 * hold about 4 MB of heap; it answers as stellar-base 15's StrKey does.
 */
const VERSION_BYTES = { ed25519PublicKey: 6 << 3, contract: 2 << 3 } as const;

export type StrKeyKind = keyof typeof VERSION_BYTES;

const DATA_BYTES = 32;
const ENCODED_LENGTH = 56;

/** StrKey.encodeEd25519PublicKey / StrKey.encodeContract. */
export function encodeStrKey(kind: StrKeyKind, data: Uint8Array): string {
  if (data.length !== DATA_BYTES) throw new RangeError(`a ${kind} StrKey holds ${DATA_BYTES} bytes`);
  const unencoded = new Uint8Array(1 + DATA_BYTES + 2);
  unencoded[0] = VERSION_BYTES[kind];
  unencoded.set(data, 1);
  const checksum = crc16XModem(unencoded.subarray(0, 1 + DATA_BYTES));
  unencoded[1 + DATA_BYTES] = checksum & 0xff;
  unencoded[2 + DATA_BYTES] = checksum >> 8;
  return base32.encode(unencoded);
}

/**
 * StrKey.isValidEd25519PublicKey / StrKey.isValidContract: the length, base32 that encodes back to
 * the same text, the version byte, the checksum.
 */
export function isValidStrKey(kind: StrKeyKind, encoded: unknown): boolean {
  if (typeof encoded !== 'string' || encoded.length !== ENCODED_LENGTH) return false;
  let decoded: Uint8Array;
  try {
    decoded = base32.decode(encoded);
  } catch {
    return false;
  }
  if (decoded.length !== 1 + DATA_BYTES + 2 || decoded[0] !== VERSION_BYTES[kind]) return false;
  const checksum = crc16XModem(decoded.subarray(0, 1 + DATA_BYTES));
  return decoded[1 + DATA_BYTES] === (checksum & 0xff) && decoded[2 + DATA_BYTES] === checksum >> 8;
}

/** CRC-16/XMODEM (polynomial 0x1021, initial 0), bit by bit: 35 bytes per key. */
function crc16XModem(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}
