import { StrKey } from '@stellar/stellar-base';
import { randomBytes } from 'node:crypto';
import { encodeStrKey, isValidStrKey } from './stellar-strkey';

// stellar-base 15's StrKey is the reference: the service answered with it before.
describe('Stellar StrKey (G... accounts, C... contracts) as stellar-base reads and writes it', () => {
  const keys = [
    Buffer.alloc(32),
    Buffer.alloc(32, 0xff),
    Buffer.from('3f0c34bf93ad0d9971d04ccc90f705511c838aad9734a4a2fb0d7a03fc7fe89a', 'hex'),
    ...Array.from({ length: 200 }, () => randomBytes(32)),
  ];

  it('encodes 32 bytes as stellar-base does, for both kinds', () => {
    for (const key of keys) {
      expect(encodeStrKey('ed25519PublicKey', key)).toBe(StrKey.encodeEd25519PublicKey(key));
      expect(encodeStrKey('contract', key)).toBe(StrKey.encodeContract(key));
    }
  });

  it('encodes the SEP-23 vector (js-stellar-base test/unit/strkey_test.js)', () => {
    expect(encodeStrKey('ed25519PublicKey', keys[2])).toBe(
      'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ',
    );
  });

  it('refuses to encode anything but 32 bytes', () => {
    expect(() => encodeStrKey('contract', new Uint8Array(31))).toThrow(RangeError);
  });

  const contract = StrKey.encodeContract(keys[2]);
  const account = StrKey.encodeEd25519PublicKey(keys[2]);
  const flipped = (text: string, at: number) =>
    text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);

  it.each<[string, unknown]>([
    ['a contract id', contract],
    ['an account (G...) where a contract is wanted', account],
    ['a checksum that does not match', flipped(contract, 55)],
    ['a changed data character', flipped(contract, 20)],
    ['lower case', contract.toLowerCase()],
    ['one character short', contract.slice(0, 55)],
    ['one character long', `${contract}A`],
    ['a character outside base32', `${contract.slice(0, 30)}1${contract.slice(31)}`],
    ['padding', `${contract.slice(0, 48)}========`],
    ['no string', 42],
    ['empty', ''],
  ])('isValid contract: %s answers as stellar-base', (_what, text) => {
    expect(isValidStrKey('contract', text)).toBe(StrKey.isValidContract(text as string));
  });

  it('every valid encoding of both kinds, and the same with a character changed, answers as stellar-base', () => {
    for (const key of keys.slice(0, 50)) {
      for (const text of [StrKey.encodeContract(key), StrKey.encodeEd25519PublicKey(key)]) {
        for (const candidate of [text, flipped(text, 1), flipped(text, 54), flipped(text, 55)]) {
          expect(isValidStrKey('contract', candidate)).toBe(StrKey.isValidContract(candidate));
          expect(isValidStrKey('ed25519PublicKey', candidate)).toBe(
            StrKey.isValidEd25519PublicKey(candidate),
          );
        }
      }
    }
  });
});
