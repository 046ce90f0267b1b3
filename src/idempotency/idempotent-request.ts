import { hash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ValidationError } from '../common/errors/domain-errors';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

const PRINTABLE_ASCII = /^[\x20-\x7e]{1,255}$/;
const INVALID_KEY = `${IDEMPOTENCY_KEY_HEADER} must be one value of 1 to 255 printable ASCII characters`;

/**
 * The request's Idempotency-Key (docs/reference/safe-writes.md): undefined when it has none; a 400 naming the
 * header when it is empty, too long, not printable ASCII, or sent more than once (Node would
 * join the values with a comma, making up a key nobody sent).
 */
export function readIdempotencyKey(
  headers: IncomingHttpHeaders,
  rawHeaders: readonly string[],
): string | undefined {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i].toLowerCase() === 'idempotency-key') count += 1;
  }
  if (count === 0) return undefined;
  const value = headers['idempotency-key'];
  if (count > 1 || typeof value !== 'string' || !PRINTABLE_ASCII.test(value)) {
    throw new ValidationError(INVALID_KEY);
  }
  return value;
}

/**
 * JSON with the keys of every object sorted, so that two bodies that mean the same get the same
 * digest whatever order their fields came in; big integers (bigint) keep every digit.
 */
export function canonicalJson(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const fields = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`);
    return `{${fields.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * SHA-256 (hex) of what makes two requests "the same request": the method, the URL as sent
 * (path and query: `?dry_run=true` is another request) and the body in canonical form.
 */
export function requestDigest(method: string, url: string, body: unknown): string {
  return hash('sha256', `${method}\n${url}\n${canonicalJson(body ?? {})}`, 'hex');
}

/**
 * The answer's `data` without the named fields, for what is stored and replayed: a secret shown
 * once (an API key's `key`) never reaches the database and is not shown again by a replay.
 */
export function withoutFields(data: unknown, fields: readonly string[]): unknown {
  if (fields.length === 0 || typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  return Object.fromEntries(Object.entries(data).filter(([key]) => !fields.includes(key)));
}
