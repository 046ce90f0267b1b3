import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';

const PREFIX = 'enc:v1:';
const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const UNDECRYPTABLE = 'Encrypted value could not be decrypted: wrong STORAGE_ENCRYPTION_KEY or altered data';
const STRICT_BASE64 = /^(?:[A-Za-z\d+/]{4})*(?:[A-Za-z\d+/]{2}==|[A-Za-z\d+/]{3}=)?$/;

export function isEncrypted(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** Stored form: `enc:v1:` + base64(iv (12) | tag (16) | ciphertext). */
export class FieldCipher {
  readonly #key: Buffer;

  private constructor(key: Buffer) {
    this.#key = key;
  }

  static fromBase64Key(b64: string): FieldCipher {
    const problem = 'STORAGE_ENCRYPTION_KEY must be base64 of exactly 32 bytes (`openssl rand -base64 32`)';
    const key = decodeStrictBase64(b64);
    if (key === null) throw new Error(`${problem}; the value is not valid base64`);
    if (key.length !== KEY_BYTES) throw new Error(`${problem}; the value decodes to ${key.length} bytes`);
    return new FieldCipher(key);
  }

  /** `associatedData` (the row's id): a ciphertext copied into another row is refused. */
  encrypt(plain: string, associatedData?: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.#key, iv, { authTagLength: TAG_BYTES });
    if (associatedData !== undefined) cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
  }

  /** Values stored before encryption was enabled are returned as they are. */
  decrypt(stored: string, associatedData?: string): string {
    if (!isEncrypted(stored)) return stored;
    const payload = decodeStrictBase64(stored.slice(PREFIX.length));
    if (payload === null || payload.length < IV_BYTES + TAG_BYTES) {
      throw new Error('Encrypted value is malformed');
    }
    const iv = payload.subarray(0, IV_BYTES);
    const tag = payload.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
    const ciphertext = payload.subarray(IV_BYTES + TAG_BYTES);
    try {
      const decipher = createDecipheriv(ALGORITHM, this.#key, iv, { authTagLength: TAG_BYTES });
      decipher.setAuthTag(tag);
      if (associatedData !== undefined) decipher.setAAD(Buffer.from(associatedData, 'utf8'));
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch (cause) {
      throw new Error(UNDECRYPTABLE, { cause });
    }
  }

  toJSON(): string {
    return 'FieldCipher';
  }

  [inspect.custom](): string {
    return 'FieldCipher';
  }
}

/** Buffer.from(…, 'base64') skips invalid characters and ignores padding; this does not. */
function decodeStrictBase64(value: string): Buffer | null {
  if (!STRICT_BASE64.test(value)) return null;
  const bytes = Buffer.from(value, 'base64');
  // Rejects non-zero unused bits in the last character, which decode to the same bytes.
  return bytes.toString('base64') === value ? bytes : null;
}
