import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Stats } from 'node:fs';
import type { z } from 'zod';
import { parseJson as parseExactJson } from '../common/http/json';
import { isPlainObject } from '../common/validation/field-rules';
import { issueLine } from '../config/zod-issues';

/** A bad configuration file: the message names the file and the entry, never a secret value. */
export class CatalogueConfigError extends Error {
  override readonly name = 'CatalogueConfigError';
  /** Every problem found with the first (`config check` names them all). */
  constructor(
    message: string,
    readonly problems: readonly string[] = [message],
  ) {
    super(message);
  }
}

/** `<where>: <problem>`, thrown: `where` names the file and the entry (`CONFIG_FILE <file>: signer 'a'`). */
export function fail(where: string, problem: string): never {
  throw new CatalogueConfigError(`${where}: ${problem}`);
}

export async function readText(file: string, where: string): Promise<string> {
  return (await readIfExists(file, where, 'the file')) ?? fail(where, 'file not found');
}

/** Undefined when the file does not exist; `what` names it in any other failure. */
export async function readIfExists(file: string, where: string, what: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    return fail(where, `cannot read ${what} (${errorCode(error) ?? 'unknown error'})`);
  }
}

/**
 * The API's parser, so that integers of any size are exact (bigint) in the file as in a body (19.4).
 * JSON.parse's own message quotes the text around the error, which may be a key: keep only its position.
 */
export function parseJson(text: string, where: string): unknown {
  try {
    return parseExactJson(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const position =
      error instanceof Error ? /at position \d+( \(line \d+ column \d+\))?/.exec(error.message) : null;
    return fail(where, `not valid JSON${position ? ` (${position[0]})` : ''}`);
  }
}

/** What to do with the keys the reference system ignores (19.4). */
export interface IgnoredKeys {
  /** CONFIG_STRICT=true: they stop the start instead. */
  readonly strict: boolean;
  /** Given one warning line per ignored key. */
  readonly warn: (message: string) => void;
}

/** How one parse treats the keys its strict objects do not know. */
export interface UnknownKeys extends IgnoredKeys {
  /** Those the reference system ignores (all, unless given); the others are refused by `refuse`. */
  readonly ignorable?: (key: string) => boolean;
  readonly refuse?: (key: string) => string;
}

/** A comment, wherever it stands: the reference system ignores keys it does not read. */
export const isComment = (key: string): boolean => key.startsWith('_');

export const quoted = (key: string): string => JSON.stringify(key.slice(0, 60));

/** Names the entry at `path[0][path[1]]` (`signer 'a'`), or undefined for the path as it is. */
export type EntryLabel = (section: PropertyKey, index: number) => string | undefined;

/**
 * An issue as the file's messages give it: the entry (named by `entry`), the path below it up to its
 * last array index (`rpc_urls[0]`), then the message, which names anything deeper itself (`.weight ...`).
 */
function issueText({ path: at }: z.core.$ZodIssue, message: string, entry?: EntryLabel): string {
  const [section, index] = at;
  const named = typeof index === 'number' ? entry?.(section, index) : undefined;
  const item = issueLine(named === undefined ? at : at.slice(2), message, { toLastIndex: true });
  return [named, item].filter((part) => part !== undefined && part !== '').join(': ');
}

/**
 * `value` parsed by `schema`: each unknown key of a strict object that the reference system ignores is
 * dropped with one warning (a problem under CONFIG_STRICT=true); any other issue is a problem, and the
 * first one is thrown (CatalogueConfigError), named by `where` and `entry`.
 */
export function parseConfig<T>(
  schema: z.ZodType<T>,
  value: unknown,
  where: string,
  keys: UnknownKeys,
  entry?: EntryLabel,
): T {
  const { ignorable = () => true, refuse = (key) => `unknown key ${quoted(key)}` } = keys;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems: string[] = [];
  const ignored: Array<[Record<string, unknown>, string]> = [];
  const at = (issue: z.core.$ZodIssue, message: string) => `${where}: ${issueText(issue, message, entry)}`;
  for (const issue of result.error.issues) {
    if (issue.code !== 'unrecognized_keys') problems.push(at(issue, issue.message));
    else if (!issue.keys.every(ignorable))
      problems.push(at(issue, refuse(issue.keys.find((k) => !ignorable(k)) ?? '')));
    else if (keys.strict) {
      const list = listOf(issue.keys.map(quoted));
      problems.push(
        at(
          issue,
          `${issue.keys.length === 1 ? 'key' : 'keys'} ${list} not read: CONFIG_STRICT=true refuses the keys the reference system ignores`,
        ),
      );
    } else {
      const holder = issue.path.reduce<unknown>(
        (object, part) => (object as Record<PropertyKey, unknown>)[part],
        value,
      );
      for (const key of issue.keys) {
        keys.warn(at(issue, `${quoted(key)} is ignored (the reference system ignores it too)`));
        ignored.push([holder as Record<string, unknown>, key]);
      }
    }
  }
  if (problems.length > 0) throw new CatalogueConfigError(problems[0], problems);
  for (const [holder, key] of ignored) delete holder[key];
  return parseConfig(schema, value, where, keys, entry);
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
