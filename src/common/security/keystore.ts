/**
 * A 32-byte secp256k1 private key as a Web3 Secret Storage (Ethereum v3) keystore, the file the
 * reference system's `local` signer reads; ethers is loaded only when one is written.
 */
export async function encryptKeystore(key: Uint8Array, passphrase: string): Promise<string> {
  const { Wallet, hexlify } = await import('ethers');
  return new Wallet(hexlify(key)).encrypt(passphrase);
}
