import { ValidationError } from '../common/errors/domain-errors';
import type { ReadTx } from '../database/transactions';
import type { NotificationsRepository } from './notifications.repository';

const WHSEC_PREFIX = 'whsec_';
/** The specification's bounds for a secret, in bytes. */
const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 64;
/** Standard base64 with its padding, as the official libraries decode it. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const WHSEC_KEY_RULE = `a whsec_ key (whsec_ then the base64 of ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} bytes)`;

/**
 * The secret a Standard Webhooks signature is keyed with: the bytes the base64 after `whsec_` encodes,
 * or null when `key` is not such a key (docs/reference/webhooks.md#13-standard-webhooks).
 */
export function standardWebhooksSecret(key: string | null): Buffer | null {
  if (key === null || !key.startsWith(WHSEC_PREFIX)) return null;
  const encoded = key.slice(WHSEC_PREFIX.length);
  if (!BASE64.test(encoded)) return null;
  const secret = Buffer.from(encoded, 'base64');
  return secret.length >= MIN_SECRET_BYTES && secret.length <= MAX_SECRET_BYTES ? secret : null;
}

/** The 400 of a key write that would leave a `standard` target without a whsec_ key. */
export const STANDARD_NEEDS_WHSEC_KEY = `signing_key must be ${WHSEC_KEY_RULE} while the signing scheme is standard`;

/** The 400 of `standard` asked for a target whose key is missing or not a whsec_ one. */
export const SCHEME_NEEDS_WHSEC_KEY = `scheme standard needs the target's signing_key to be ${WHSEC_KEY_RULE}`;

/**
 * A `standard` target keeps a whsec_ key: `key` (in clear; null when removed) is refused for one.
 * Read locked in the write's transaction, so that a scheme put meanwhile is seen (MySQL; SQLite has
 * one writer at a time), and the scheme's put, which reads the key locked, sees this key.
 */
export async function assertKeyFitsScheme(
  notifications: NotificationsRepository,
  id: string,
  key: string | null,
  tx: ReadTx,
): Promise<void> {
  if (standardWebhooksSecret(key) !== null) return;
  const row = await notifications.findForUpdate(id, tx);
  if (row?.signingScheme === 'standard') throw new ValidationError(STANDARD_NEEDS_WHSEC_KEY);
}
