import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Stats } from 'node:fs';
import { parseJson as parseExactJson } from '../common/http/json';
import { isPlainObject } from '../common/validation/field-rules';

/** A bad configuration file: the message names the file and the entry, never a secret value. */
export class CatalogueConfigError extends Error {
  override readonly name = 'CatalogueConfigError';
}

/**
 * Where a problem is, for its message: each scope points at its parent, so that naming the entry of
 * each of 20,000 signers costs one small object, and the path is joined only when it fails.
 */
export class Scope {
  private constructor(
    private readonly parent: Scope | null,
    private readonly part: string,
  ) {}

  static root(configFile: string): Scope {
    return new Scope(null, `CONFIG_FILE ${configFile}`);
  }

  child(part: string): Scope {
    return new Scope(this, part);
  }

  fail(problem: string): never {
    throw new CatalogueConfigError(this.describe(problem));
  }

  describe(problem: string): string {
    return [...this.path(), problem].join(': ');
  }

  private path(): string[] {
    return this.parent === null ? [this.part] : [...this.parent.path(), this.part];
  }
}

export async function readText(file: string, scope: Scope): Promise<string> {
  return (await readIfExists(file, scope, 'the file')) ?? scope.fail('file not found');
}

/** Undefined when the file does not exist; `what` names it in any other failure. */
export async function readIfExists(file: string, scope: Scope, what: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    return scope.fail(`cannot read ${what} (${errorCode(error) ?? 'unknown error'})`);
  }
}

/**
 * The API's parser, so that integers of any size are exact (bigint) in the file as in a body (19.4).
 * JSON.parse's own message quotes the text around the error, which may be a key: keep only its position.
 */
export function parseJson(text: string, scope: Scope): unknown {
  try {
    return parseExactJson(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const position =
      error instanceof Error ? /at position \d+( \(line \d+ column \d+\))?/.exec(error.message) : null;
    return scope.fail(`not valid JSON${position ? ` (${position[0]})` : ''}`);
  }
}

/** What to do with the keys the reference system ignores (19.4). */
export interface IgnoredKeys {
  /** CONFIG_STRICT=true: they stop the start instead. */
  readonly strict: boolean;
  /** Given one warning line per ignored key. */
  readonly warn: (message: string) => void;
}

/** A comment, wherever it stands: the reference system ignores keys it does not read. */
export const isComment = (key: string): boolean => key.startsWith('_');

const quoted = (key: string): string => JSON.stringify(key.slice(0, 60));

/**
 * `value` without the keys outside `known` that `ignorable` accepts, each with one warning naming it
 * and where it stands (or the start stops naming them when strict); the first other key outside
 * `known` stops the start, named by `refuse`.
 */
export function withoutIgnoredKeys<T extends Record<string, unknown>>(
  value: T,
  known: ReadonlySet<string>,
  scope: Scope,
  ignored: IgnoredKeys,
  ignorable: (key: string) => boolean = () => true,
  refuse: (key: string) => string = (key) => `unknown key ${quoted(key)}`,
): T {
  const extra = Object.keys(value).filter((key) => !known.has(key));
  if (extra.length === 0) return value;
  const refused = extra.find((key) => !ignorable(key));
  if (refused !== undefined) scope.fail(refuse(refused));
  if (ignored.strict) {
    scope.fail(
      `${extra.length === 1 ? 'key' : 'keys'} ${listOf(extra.map(quoted))} not read: ` +
        'CONFIG_STRICT=true refuses the keys the reference system ignores',
    );
  }
  const kept: Record<string, unknown> = { ...value };
  for (const key of extra) {
    ignored.warn(scope.describe(`${quoted(key)} is ignored (the reference system ignores it too)`));
    delete kept[key];
  }
  return kept as T;
}

/**
 * A path written in the file, found as the reference system finds it (19.4): from the working directory
 * first, then from the file's folder; a path under `config/` also from the file's folder standing for
 * `./config` (CONFIG_DIR pointing elsewhere). The first candidate that `wanted` accepts, else undefined.
 */
export async function findPath(
  written: string,
  configFile: string,
  wanted: (stats: Stats) => boolean,
): Promise<string | undefined> {
  for (const candidate of pathCandidates(written, configFile)) {
    const stats = await stat(candidate).catch(() => null);
    if (stats !== null && wanted(stats)) return candidate;
  }
  return undefined;
}

export function pathCandidates(written: string, configFile: string): string[] {
  const folder = path.dirname(configFile);
  const candidates = [path.resolve(written), path.resolve(folder, written)];
  const [first, ...rest] = path.normalize(written).split(path.sep);
  if (!path.isAbsolute(written) && first === 'config' && rest.length > 0) {
    candidates.push(path.resolve(folder, ...rest));
  }
  return [...new Set(candidates)];
}

export { isPlainObject };

export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

export function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
}

export function errorCode(error: unknown): string | undefined {
  return (error as { code?: unknown } | null)?.code?.toString();
}

export function describeUnknown(field: string, value: unknown): string {
  const shown = typeof value === 'string' && value.length <= 40 ? ` ${JSON.stringify(value)}` : '';
  return value === undefined ? `${field} is missing` : `unknown ${field}${shown}`;
}

export function listOf(values: readonly string[]): string {
  if (values.length === 1) return values[0];
  return `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}
