import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createKeyFileOnce } from '../common/security/key-file';
import { KEY_LENGTH_BYTES, isValidSecp256k1PrivateKey } from '../catalogue';
import { SecretKey, type CatalogueSigner } from '../catalogue';
import type { HostedSignerResolver } from '../catalogue';
import { CatalogueConfigError, fail, findPath, listOf, pathCandidates, readIfExists } from './config-json';
import { HEX_KEY_PATTERN, secretValue, type SecretRef, type SignerEntry } from './config-schema';

export interface SignerContext {
  /** A keystore's path is found from the working directory, then from this file's folder (19.4). */
  readonly configFile: string;
  /** Where a generated development key is kept. */
  readonly dataDir: string;
  readonly production: boolean;
  readonly env: Record<string, string | undefined>;
  /** Told about events worth a log line, such as a newly generated development key. Never given a secret. */
  readonly onNotice?: (message: string) => void;
  /** `config check`: nothing is written; a development key not generated yet stands as a placeholder. */
  readonly readOnly?: boolean;
  /** Without it, the types of signers whose key a key service holds are unknown. */
  readonly hostedSigners?: HostedSignerResolver;
}

/**
 * The signers of the file, their shape checked (`sectionsSchema`), with their keys: synchronous per signer
 * when the key is in the file or the environment, so that 20,000 such signers load without an await each.
 */
export async function readSigners(
  entries: readonly SignerEntry[],
  where: string,
  context: SignerContext,
): Promise<CatalogueSigner[]> {
  const signers: CatalogueSigner[] = [];
  for (const entry of entries) {
    const { id } = entry;
    const at = `${where}: signer '${id}'`;
    if ('hosted' in entry.config) {
      const view = await context.hostedSigners
        ?.resolve(id, entry.type, entry.config.hosted)
        .catch((error: Error) => fail(at, error.message));
      signers.push({ id, type: 'plain', key: new SecretKey(new Uint8Array()), hosted: view });
      continue;
    }
    let key: Uint8Array;
    if ('path' in entry.config) {
      const passphrase = resolveSecret(entry.config.passphrase, `${at}: passphrase`, context.env);
      const file = await findKeystore(entry.config.path, context.configFile, at);
      key = await decryptKeystore(file, passphrase, at);
    } else if (entry.config.key.type === 'generated') {
      key = await generatedKey(id, entry.config.key.value, at, context);
    } else key = parseKey(resolveSecret(entry.config.key, `${at}: key`, context.env), at);
    signers.push({ id, type: 'path' in entry.config ? 'local' : 'plain', key: new SecretKey(key) });
  }
  return signers;
}

function resolveSecret(ref: SecretRef, where: string, env: Record<string, string | undefined>): string {
  const { value, problems } = secretValue(ref, env);
  return problems.length === 0 ? value : fail(where, problems[0]);
}

/** 1: the smallest valid secp256k1 key, never used to sign (only in `config check`). */
const PLACEHOLDER_KEY = Uint8Array.from({ length: KEY_LENGTH_BYTES }, (_, i) =>
  i === KEY_LENGTH_BYTES - 1 ? 1 : 0,
);
function parseKey(text: string, where: string): Uint8Array {
  const trimmed = text.trim();
  if (!HEX_KEY_PATTERN.test(trimmed)) fail(where, 'key must be 32 bytes as 64 hex characters');
  // SecretKey keeps its own copy of these bytes.
  const key = Buffer.from(trimmed.startsWith('0x') ? trimmed.slice(2) : trimmed, 'hex');
  if (!isValidSecp256k1PrivateKey(key)) {
    fail(where, 'key is not a valid secp256k1 private key (it must be non-zero and below the curve order)');
  }
  return key;
}

/**
 * The shipped config's development signer, so that `npm start` can create a relayer at once with no key
 * committed. Refused in production even when the file exists: a key made on a developer's machine must
 * never sign for real.
 */
async function generatedKey(
  signerId: string,
  fileName: string,
  where: string,
  context: SignerContext,
): Promise<Uint8Array> {
  if (context.production) {
    fail(
      where,
      'a generated development key is refused in production; configure a real key ' +
        '({"type": "env", "value": "<VARIABLE>"} for a plain signer, or a local keystore signer)',
    );
  }
  const dataDir = path.resolve(context.dataDir);
  const file = path.join(dataDir, fileName);
  let text = await readIfExists(file, where, `the key file ${file}`);
  // A start would generate it: the check only needs a valid key in its place.
  if (text === undefined && context.readOnly) return PLACEHOLDER_KEY;
  if (text === undefined) {
    await mkdir(dataDir, { recursive: true });
    let key = randomBytes(KEY_LENGTH_BYTES);
    while (!isValidSecp256k1PrivateKey(key)) key = randomBytes(KEY_LENGTH_BYTES);
    text = await createKeyFileOnce(file, key.toString('hex'));
    if (text === undefined) text = (await readIfExists(file, where, `the key file ${file}`)) ?? '';
    else context.onNotice?.(`Generated the development key of signer '${signerId}' in ${file}`);
  }
  return parseKey(text, `${where}: key file ${file}`);
}

async function findKeystore(written: string, configFile: string, where: string): Promise<string> {
  const found = await findPath(written, configFile, (stats) => stats.isFile());
  if (found !== undefined) return found;
  const [first, ...others] = pathCandidates(written, configFile);
  return fail(
    where,
    `keystore file ${first} not found${others.length > 0 ? ` (nor ${listOf(others)})` : ''}`,
  );
}

/** ethers is loaded only when a keystore is configured: it is large and the default config has none. */
async function decryptKeystore(file: string, passphrase: string, where: string): Promise<Uint8Array> {
  const { decryptKeystoreJson, isError, isKeystoreJson } = await import('ethers');
  const json = await readIfExists(file, where, `keystore file ${file}`);
  if (json === undefined) return fail(where, `keystore file ${file} not found`);
  if (!isKeystoreJson(json)) fail(where, `${file} is not an Ethereum v3 keystore`);
  try {
    const account = await decryptKeystoreJson(json, passphrase);
    return parseKey(account.privateKey, `${where}: keystore ${file}`);
  } catch (error) {
    if (error instanceof CatalogueConfigError) throw error;
    if (isError(error, 'INVALID_ARGUMENT') && error.argument === 'password') {
      fail(where, `wrong passphrase for keystore ${file}`);
    }
    // ethers messages name the failing field (unsupported cipher, kdf...) and redact values.
    const reason = isError(error, 'INVALID_ARGUMENT') ? `: ${error.shortMessage}` : '';
    return fail(where, `cannot decrypt keystore ${file}${reason}`);
  }
}
