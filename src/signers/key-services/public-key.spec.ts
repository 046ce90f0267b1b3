import { createECDH, createPublicKey } from 'node:crypto';
import {
  addressesOf,
  addressesOfAccount,
  fromJwk,
  fromSpki,
  parseGivenPublicKey,
  UnsupportedKeyError,
} from './public-key';

// The private key 1: its EVM address is the published vector 0x7E5F…Bdf.
const ONE = Buffer.alloc(32);
ONE[31] = 1;
const ecdh = createECDH('secp256k1');
ecdh.setPrivateKey(ONE);
const point = ecdh.getPublicKey();
const EVM_ONE = '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf';
const jwk = {
  kty: 'EC',
  crv: 'secp256k1',
  x: point.subarray(1, 33).toString('base64url'),
  y: point.subarray(33).toString('base64url'),
};
const spki = createPublicKey({ key: jwk, format: 'jwk' }).export({ type: 'spki', format: 'der' });

describe('public keys of key services', () => {
  it.each([
    ['a DER SubjectPublicKeyInfo', fromSpki(spki)],
    [
      'its PEM',
      fromSpki(
        createPublicKey({ key: jwk, format: 'jwk' }).export({ type: 'spki', format: 'pem' }).toString(),
      ),
    ],
    ["Azure's P-256K JWK", fromJwk({ ...jwk, crv: 'P-256K' })],
    ['a compressed point in hex', parseGivenPublicKey(ecdh.getPublicKey('hex', 'compressed'))],
    ['an uncompressed point in hex', parseGivenPublicKey(`0x${point.toString('hex')}`)],
  ])('secp256k1 from %s: the EVM address only', (_name, key) => {
    expect(key && addressesOf(key)).toEqual({ evm: EVM_ONE });
  });

  it('ed25519 in base64 or hex: the Solana and Stellar addresses of the key', () => {
    const key = Buffer.alloc(32, 7);
    const expected = addressesOf({ curve: 'ed25519', bytes: key });
    expect(Object.keys(expected)).toEqual(['solana', 'stellar']);
    expect(
      addressesOf(
        parseGivenPublicKey(key.toString('base64')) ?? { curve: 'ed25519', bytes: Buffer.alloc(0) },
      ),
    ).toEqual(expected);
    expect(addressesOf(fromJwk({ kty: 'OKP', crv: 'Ed25519', x: key.toString('base64url') }))).toEqual(
      expected,
    );
  });

  it('refuses other curves and shapes', () => {
    expect(() => fromJwk({ kty: 'EC', crv: 'P-256', x: 'AA', y: 'AA' })).toThrow(UnsupportedKeyError);
    expect(() => fromSpki(Buffer.from('not a key'))).toThrow(UnsupportedKeyError);
    expect([parseGivenPublicKey('zz'), parseGivenPublicKey('02'.padEnd(66, '0'))]).toEqual([null, null]);
  });

  it.each([
    [EVM_ONE.toLowerCase(), { evm: EVM_ONE }],
    [
      '6ASf5EcmmEHTgDJ4X4ZT5vT6iHVJBXPg5AN5YoTCpGWt',
      { solana: '6ASf5EcmmEHTgDJ4X4ZT5vT6iHVJBXPg5AN5YoTCpGWt' },
    ],
    ['0x123', null],
  ])('a CDP account address %s', (address, expected) => {
    expect(addressesOfAccount(address)).toEqual(expected);
  });
});
