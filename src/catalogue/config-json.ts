import { readFile } from 'node:fs/promises';
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
    throw new CatalogueConfigError([...this.path(), problem].join(': '));
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

/** JSON.parse's own message quotes the text around the error, which may be a key: keep only its position. */
export function parseJson(text: string, scope: Scope): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (error) {
    const position =
      error instanceof Error ? /at position \d+( \(line \d+ column \d+\))?/.exec(error.message) : null;
    return scope.fail(`not valid JSON${position ? ` (${position[0]})` : ''}`);
  }
}

/** Refuses the first key outside `known`, by name (a key the reference system does not know). */
export function refuseUnknownKeys(value: object, known: ReadonlySet<string>, scope: Scope): void {
  const unknown = Object.keys(value).find((key) => !known.has(key));
  if (unknown !== undefined) scope.fail(`unknown key ${JSON.stringify(unknown.slice(0, 60))}`);
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
  return `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}
