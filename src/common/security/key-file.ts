import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Hard-linked into place, so that no instance sees a half-written key; undefined for the race's loser. */
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

export async function readOrCreateKeyFile(file: string, generate: () => string) {
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

const errorCode = (error: unknown): unknown => (error as { code?: unknown } | null | undefined)?.code;
