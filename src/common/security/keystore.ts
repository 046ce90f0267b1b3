/**
 * scrypt's cost (N) of a keystore written by the service or its tools: 2^17, the Web3 Secret Storage
 * default of ethers and geth. `--scrypt-n` lowers it for throwaway keys (tests); decryption reads N
 * from the file, so any power of two from 2^10 to 2^20 is read back.
 */
export const DEFAULT_SCRYPT_N = 131072;
export const SCRYPT_N_RANGE = { min: 1024, max: 1048576 } as const;

/** A power of two inside SCRYPT_N_RANGE, from a command-line value; undefined otherwise. */
export function parseScryptN(text: string): number | undefined {
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  const powerOfTwo = Number.isSafeInteger(n) && n > 0 && (n & (n - 1)) === 0;
  return powerOfTwo && n >= SCRYPT_N_RANGE.min && n <= SCRYPT_N_RANGE.max ? n : undefined;
}

/**
 * A 32-byte secp256k1 private key as a Web3 Secret Storage (Ethereum v3) keystore, the file the
 * reference system's `local` signer reads; ethers is loaded only when one is written.
 */
export async function encryptKeystore(
  key: Uint8Array,
  passphrase: string,
  scryptN: number = DEFAULT_SCRYPT_N,
): Promise<string> {
  const { computeAddress, encryptKeystoreJson, hexlify } = await import('ethers');
  const privateKey = hexlify(key);
  return encryptKeystoreJson({ address: computeAddress(privateKey), privateKey }, passphrase, {
    scrypt: { N: scryptN },
  });
}
