import { StrKey } from '@stellar/stellar-base';
import {
  KEY_KIND_BY_SIGNER_TYPE,
  NETWORK_TYPES_BY_KEY_KIND,
  deriveAddress,
  ed25519PublicKey,
  evmAddress,
  isValidSecp256k1PrivateKey,
  keyKindSuits,
  solanaAddress,
  stellarAddress,
  toChecksumAddress,
} from './address-derivation';
import { NETWORK_TYPES, SIGNER_TYPES } from './catalogue.types';

const hex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, 'hex'));
const SECP256K1_ORDER = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141';

describe('EVM addresses', () => {
  // Private keys 1 and 2 (public keys G and 2G): the best-known secp256k1 -> Ethereum address vectors.
  it.each([
    [
      '0000000000000000000000000000000000000000000000000000000000000001',
      '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf',
    ],
    [
      '0000000000000000000000000000000000000000000000000000000000000002',
      '0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF',
    ],
  ])('key %s -> %s', (key, address) => {
    expect(evmAddress(hex(key))).toBe(address);
    expect(deriveAddress('evm', hex(key))).toBe(address);
  });

  // The test cases of EIP-55 itself ("all caps", "all lower", "normal").
  it.each([
    '0x52908400098527886E0F7030069857D2E4169EE7',
    '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
    '0xde709f2102306220921060314715629080e2fb77',
    '0x27b1fdb04752bbc536007a920d24acb045561c26',
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ])('EIP-55 checksum of %s', (address) => {
    expect(toChecksumAddress(address.toLowerCase())).toBe(address);
  });

  it.each([
    ['zero', '00'.repeat(32), false],
    ['one', `${'00'.repeat(31)}01`, true],
    ['order - 1', `${SECP256K1_ORDER.slice(0, -1)}0`, true],
    ['curve order', SECP256K1_ORDER, false],
    ['all ones', 'ff'.repeat(32), false],
    ['31 bytes', '01'.repeat(31), false],
  ])('a %s key is a valid secp256k1 private key: %s', (_name, key, valid) => {
    expect(isValidSecp256k1PrivateKey(hex(key))).toBe(valid);
  });
});

describe('ed25519 addresses (Solana base58, Stellar StrKey)', () => {
  it('derives the public key of RFC 8032 section 7.1 TEST 1', () => {
    const seed = hex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
    expect(Buffer.from(ed25519PublicKey(seed)).toString('hex')).toBe(
      'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    );
    // The two encodings of that public key, cross-checked against the independent base58 and StrKey
    // implementations of the conformance kit (shared/conformance/lib/addresses.mjs).
    expect(solanaAddress(seed)).toBe('FVen3X669xLzsi6N2V91DoiyzHzg1uAgqiT8jZ9nS96Z');
    expect(stellarAddress(seed)).toBe('GDLVVGABQKYQVN6VJP7NHSLEA45A5YLS6PNKMIZFV4BBU2HXA5IRVHUR');
  });

  it.each([
    // solana-web3.js test/keypair.test.ts, "generate keypair from random seed": Keypair.fromSeed(32 x 0x08).
    ['solana', '08'.repeat(32), '2KW2XRd9kwqet15Aha2oK3tYvd3nWbTFH1MBiRAv1BE1'],
    // js-stellar-base test/unit/keypair_test.js, "Keypair.fromRawSeed": the raw seed
    // "masterpassphrasemasterpassphrase" (ASCII), public key 2e3c3501...ef7432.
    [
      'stellar',
      Buffer.from('masterpassphrasemasterpassphrase').toString('hex'),
      'GAXDYNIBA5E4DXR5TJN522RRYESFQ5UNUXHIPTFGVLLD5O5K552DF5ZH',
    ],
  ] as const)('%s: seed %s -> %s (published vector)', (type, seed, address) => {
    expect(deriveAddress(type, hex(seed))).toBe(address);
  });

  it.each([
    // js-stellar-base test/unit/strkey_test.js (SEP-23 vector): raw key 3f0c34bf...7fe89a.
    ['GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ'],
    // The account of the Stellar SDK documentation examples (js-stellar-base README, StrKey tests).
    ['GBBM6BKZPEHWYO3E3YKREDPQXMS4VK35YLNU7NFBRI26RAN7GI5POFBB'],
  ])('StrKey round trip of %s', (address) => {
    expect(StrKey.encodeEd25519PublicKey(StrKey.decodeEd25519PublicKey(address))).toBe(address);
  });

  it('encodes the raw key of the SEP-23 vector as its G address', () => {
    const raw = Buffer.from('3f0c34bf93ad0d9971d04ccc90f705511c838aad9734a4a2fb0d7a03fc7fe89a', 'hex');
    expect(StrKey.encodeEd25519PublicKey(raw)).toBe(
      'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ',
    );
  });
});

describe('which keys suit which network types', () => {
  it.each(
    SIGNER_TYPES.flatMap((signerType) =>
      NETWORK_TYPES.map((networkType) => [signerType, networkType] as const),
    ),
  )('a %s signer suits %s networks', (signerType, networkType) => {
    expect(keyKindSuits(KEY_KIND_BY_SIGNER_TYPE[signerType], networkType)).toBe(true);
  });

  it('states the table for every key kind', () => {
    expect(NETWORK_TYPES_BY_KEY_KIND).toEqual({ 'raw-32-byte-seed': ['evm', 'solana', 'stellar'] });
  });
});
