import { hash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ValidationError } from '../common/errors/domain-errors';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

const PRINTABLE_ASCII = /^[\x20-\x7e]{1,255}$/;
const INVALID_KEY = `${IDEMPOTENCY_KEY_HEADER} must be one value of 1 to 255 printable ASCII characters`;

/** Sent more than once is a 400 too: Node would join the values into a key nobody sent. */
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

/** JSON with every object's keys sorted, so that bodies that mean the same get the same digest. */
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

/** The URL with its query: `?dry_run=true` is another request. */
export function requestDigest(method: string, url: string, body: unknown): string {
  return hash('sha256', `${method}\n${url}\n${canonicalJson(body ?? {})}`, 'hex');
}

export function withoutFields(data: unknown, fields: readonly string[]): unknown {
  if (fields.length === 0 || typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  return Object.fromEntries(Object.entries(data).filter(([key]) => !fields.includes(key)));
}
