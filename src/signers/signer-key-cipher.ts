import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { FieldCipher } from '../common/security/field-cipher';
import type { AppConfig } from '../config/app-config';
import { readOrCreateKeyFile } from '../common/security/key-file';

/** The cipher of signer keys given through the API, or null when none may be used (production without a key). */
export const SIGNER_KEY_CIPHER = Symbol('SIGNER_KEY_CIPHER');

/**
 * STORAGE_ENCRYPTION_KEY when set. Outside production without it, a key generated once and kept in
 * the data folder (mode 0600), as for the development signer, so that `npm start` can create
 * signers at once; in production without it, null: POST /signers then answers 503 naming the variable.
 */
export async function createSignerKeyCipher(
  config: Pick<AppConfig, 'storageEncryptionKey' | 'production' | 'dataDir'>,
  onNotice: (message: string) => void,
): Promise<FieldCipher | null> {
  if (config.storageEncryptionKey) return FieldCipher.fromBase64Key(config.storageEncryptionKey);
  if (config.production) return null;
  const file = path.join(config.dataDir, 'storage-encryption.key');
  const { text, created } = await readOrCreateKeyFile(file, () => randomBytes(32).toString('base64'));
  if (created) onNotice(`Generated a development STORAGE_ENCRYPTION_KEY for signer keys in ${file}`);
  return FieldCipher.fromBase64Key(text.trim());
}
