import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';

import { FieldCipher, isEncrypted } from './field-cipher';

const KEY = Buffer.alloc(32, 7).toString('base64');
const OTHER_KEY = Buffer.alloc(32, 9).toString('base64');
const KEY_ERROR = 'STORAGE_ENCRYPTION_KEY must be base64 of exactly 32 bytes (`openssl rand -base64 32`)';
const TAMPERED = 'Encrypted value could not be decrypted: wrong STORAGE_ENCRYPTION_KEY or altered data';

function errorOf(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  }
  throw new Error('expected an error, none was thrown');
}

function payloadOf(stored: string): Buffer {
  return Buffer.from(stored.slice('enc:v1:'.length), 'base64');
}

function flipByte(stored: string, index: number): string {
  const payload = payloadOf(stored);
  payload[index] = (payload[index] ?? 0) ^ 0x01;
  return `enc:v1:${payload.toString('base64')}`;
}

describe('FieldCipher', () => {
  const cipher = FieldCipher.fromBase64Key(KEY);

  it.each(['', 'a', 'whsec_0123456789abcdef0123456789abcdef', 'ünïcødé 🔑', 'x'.repeat(10_000)])(
    'round-trips %j',
    (plain) => {
      const stored = cipher.encrypt(plain);
      expect(stored).toMatch(/^enc:v1:[A-Za-z\d+/]+={0,2}$/);
      expect(payloadOf(stored).length).toBe(12 + 16 + Buffer.byteLength(plain, 'utf8'));
      expect(isEncrypted(stored)).toBe(true);
      expect(cipher.decrypt(stored)).toBe(plain);
    },
  );

  it('uses a fresh IV for every encryption', () => {
    const first = cipher.encrypt('same');
    const second = cipher.encrypt('same');
    expect(first).not.toBe(second);
    expect(payloadOf(first).subarray(0, 12).equals(payloadOf(second).subarray(0, 12))).toBe(false);
  });

  it('decrypts with another instance built from the same key', () => {
    expect(FieldCipher.fromBase64Key(KEY).decrypt(cipher.encrypt('shared'))).toBe('shared');
  });

  it('accepts a random key', () => {
    const random = FieldCipher.fromBase64Key(randomBytes(32).toString('base64'));
    expect(random.decrypt(random.encrypt('value'))).toBe('value');
  });

  it.each<[string, number]>([
    ['iv', 0],
    ['iv end', 11],
    ['tag', 12],
    ['tag end', 27],
    ['ciphertext', 28],
    ['ciphertext end', 28 + 'signing-key'.length - 1],
  ])('detects a change to the %s', (_part, index) => {
    const stored = cipher.encrypt('signing-key');
    expect(errorOf(() => cipher.decrypt(flipByte(stored, index))).message).toBe(TAMPERED);
  });

  it('refuses a value encrypted with another key', () => {
    const stored = FieldCipher.fromBase64Key(OTHER_KEY).encrypt('signing-key');
    expect(errorOf(() => cipher.decrypt(stored)).message).toBe(TAMPERED);
  });

  it('refuses a truncated ciphertext', () => {
    const stored = cipher.encrypt('signing-key');
    const truncated = `enc:v1:${payloadOf(stored).subarray(0, 30).toString('base64')}`;
    expect(errorOf(() => cipher.decrypt(truncated)).message).toBe(TAMPERED);
  });

  it.each([
    'enc:v1:',
    'enc:v1:!!!!',
    'enc:v1:AAAA',
    `enc:v1:${Buffer.alloc(27).toString('base64')}`,
    `enc:v1:${Buffer.alloc(40).toString('base64url')}`,
    `enc:v1:${Buffer.alloc(40).toString('base64')} `,
  ])('refuses the malformed value %j', (stored) => {
    expect(errorOf(() => cipher.decrypt(stored)).message).toBe('Encrypted value is malformed');
  });

  it.each(['', 'plain-signing-key-written-before-encryption', 'enc:v2:whatever', 'ENC:V1:abc'])(
    'returns the unencrypted value %j as it is',
    (stored) => {
      expect(isEncrypted(stored)).toBe(false);
      expect(cipher.decrypt(stored)).toBe(stored);
    },
  );

  it('decrypts only with the associated data it was encrypted with', () => {
    const cipher = FieldCipher.fromBase64Key(KEY);
    const stored = cipher.encrypt('secret', 'signer-a');
    expect(cipher.decrypt(stored, 'signer-a')).toBe('secret');
    expect(errorOf(() => cipher.decrypt(stored, 'signer-b')).message).toBe(TAMPERED);
    expect(errorOf(() => cipher.decrypt(stored)).message).toBe(TAMPERED);
    expect(errorOf(() => cipher.decrypt(cipher.encrypt('secret'), 'signer-a')).message).toBe(TAMPERED);
  });

  it('never shows its key', () => {
    expect(inspect(cipher)).toBe('FieldCipher');
    expect(JSON.stringify({ cipher })).toBe('{"cipher":"FieldCipher"}');
  });

  describe('fromBase64Key', () => {
    const notBase64 = `${KEY_ERROR}; the value is not valid base64`;

    it.each<[string, string, string]>([
      ['16 bytes', Buffer.alloc(16, 1).toString('base64'), `${KEY_ERROR}; the value decodes to 16 bytes`],
      ['31 bytes', Buffer.alloc(31, 1).toString('base64'), `${KEY_ERROR}; the value decodes to 31 bytes`],
      ['33 bytes', Buffer.alloc(33, 1).toString('base64'), `${KEY_ERROR}; the value decodes to 33 bytes`],
      ['64 bytes', Buffer.alloc(64, 1).toString('base64'), `${KEY_ERROR}; the value decodes to 64 bytes`],
      ['empty', '', `${KEY_ERROR}; the value decodes to 0 bytes`],
      ['not base64', 'this is not base64 at all!!', notBase64],
      ['64 hex characters', 'ab'.repeat(32), `${KEY_ERROR}; the value decodes to 48 bytes`],
      ['missing padding', KEY.slice(0, -1), notBase64],
      ['base64url alphabet', Buffer.alloc(32, 0xfb).toString('base64url') + '=', notBase64],
      ['surrounding whitespace', ` ${KEY}\n`, notBase64],
      ['embedded newline', `${KEY.slice(0, 20)}\n${KEY.slice(20)}`, notBase64],
      ['padding in the middle', `${KEY.slice(0, 20)}=${KEY.slice(21)}`, notBase64],
      ['non-zero unused bits', `${'A'.repeat(42)}B=`, notBase64],
    ])('refuses a key that is %s', (_case, key, message) => {
      expect(errorOf(() => FieldCipher.fromBase64Key(key)).message).toBe(message);
    });

    it('does not put the key in the error message', () => {
      const key = Buffer.alloc(16, 0xab).toString('base64');
      expect(errorOf(() => FieldCipher.fromBase64Key(key)).message).not.toContain(key);
    });
  });
});
