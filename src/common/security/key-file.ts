import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes a temporary file then hard-links it into place, so that two instances starting at once never
 * see a half-written key: the loser of the race gets EEXIST (answered `undefined`) and reads the winner's.
 */
export async function createKeyFileOnce(file: string, hexKey: string): Promise<string | undefined> {
  const temporary = `${file}.${randomUUID()}.tmp`;
  await writeFile(temporary, `${hexKey}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, file);
    return hexKey;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return undefined;
    throw error;
  } finally {
    await rm(temporary, { force: true });
  }
}

/**
 * The key kept in `file`, created by `generate` on first use (mode 0600, in a folder created if
 * needed); `created` says whether this call made it. Two instances starting at once share one key.
 */
export async function readOrCreateKeyFile(
  file: string,
  generate: () => string,
): Promise<{ text: string; created: boolean }> {
  const existing = await readIfExists(file);
  if (existing !== undefined) return { text: existing, created: false };
  await mkdir(path.dirname(file), { recursive: true });
  const text = await createKeyFileOnce(file, generate());
  if (text !== undefined) return { text, created: true };
  return { text: (await readIfExists(file)) ?? '', created: false };
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}
