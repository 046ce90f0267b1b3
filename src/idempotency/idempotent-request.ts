import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ValidationError } from '../common/errors/domain-errors';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

const EMPTY_OBJECT = Buffer.from('{}');
/** The column's length (idempotency-key.entity.ts). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const PRINTABLE_ASCII = new RegExp(`^[\\x20-\\x7e]{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}$`);
const INVALID_KEY = `${IDEMPOTENCY_KEY_HEADER} must be one value of 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters`;

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

/**
 * The URL with its query (`?dry_run=true` is another request) and the body's bytes as read (after
 * Content-Encoding): a body spelled differently is another request. No body counts as `{}` (POST
 * routes without a body accept both).
 */
export function requestDigest(method: string, url: string, body: Uint8Array): string {
  return createHash('sha256')
    .update(`${method}\n${url}\n`)
    .update(body.length === 0 ? EMPTY_OBJECT : body)
    .digest('hex');
}

export function withoutFields(data: unknown, fields: readonly string[]): unknown {
  if (fields.length === 0 || typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  return Object.fromEntries(Object.entries(data).filter(([key]) => !fields.includes(key)));
}
