import type { z } from 'zod';

/**
 * How the problems of what does not come through HTTP (the environment, the configuration file,
 * policies, key-service configs) are written from zod's issues: `<path> <message>`, the path as
 * `root.field[0].field`, and one `<path>.<key> is not an allowed field` per unknown key.
 */
export interface IssueFormat {
  /** Written before the path: `policies`, `config`, `DATABASE_URL`. */
  readonly root?: string;
  /** The path stops at its last array index: the message names the fields below it (`.weight must be ...`). */
  readonly toLastIndex?: boolean;
  /** An unknown key longer than this is cut, with `...`. */
  readonly maxKey?: number;
}

/** One problem: the path, then the message (a message starting with `:` or `.` follows the path at once). */
export function issueLine(path: readonly PropertyKey[], message: string, format: IssueFormat = {}): string {
  const shown = format.toLastIndex
    ? path.slice(0, path.findLastIndex((part) => typeof part === 'number') + 1)
    : path;
  const at = shown.reduce<string>(
    (text, part) =>
      typeof part === 'number' ? `${text}[${part}]` : `${text}${text === '' ? '' : '.'}${String(part)}`,
    format.root ?? '',
  );
  return at === '' || format.toLastIndex || message.startsWith(':') ? `${at}${message}` : `${at} ${message}`;
}

/** The problems of one issue. */
export function issueLines(issue: z.core.$ZodIssue, format: IssueFormat = {}): string[] {
  if (issue.code !== 'unrecognized_keys') return [issueLine(issue.path, issue.message, format)];
  const { maxKey = Infinity } = format;
  return issue.keys.map((key) =>
    issueLine(
      [...issue.path, key.length > maxKey ? `${key.slice(0, maxKey)}...` : key],
      'is not an allowed field',
      format,
    ),
  );
}
