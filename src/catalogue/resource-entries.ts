import { SIGNER_ID_PATTERN } from './catalogue.types';
import { Scope, isNonEmptyString, isPlainObject, withoutIgnoredKeys, type IgnoredKeys } from './config-json';
import { parseRpcUrls } from './network-entries';
import { parseSecretRef, resolveSecret } from './signer-entries';

/**
 * A relayer or notification of the file (19.1): the body of a create, a notification's signing key
 * resolved, a relayer's `custom_rpc_urls` as `{url, weight}` objects. The API's rules apply when applied.
 */
export interface FileEntry {
  readonly id: string;
  readonly body: Readonly<Record<string, unknown>>;
}

const NOTIFICATION_KEYS: ReadonlySet<string> = new Set(['id', 'type', 'url', 'signing_key']);
const RELAYER_KEYS: ReadonlySet<string> = new Set([
  ...['id', 'name', 'network', 'network_type', 'paused', 'signer_id'],
  ...['notification_id', 'custom_rpc_urls', 'policies'],
]);

/** The entries of a section: an array of objects with distinct ids, each named `<section>[<i>]`. */
function sectionEntries(
  value: unknown,
  section: string,
  keys: ReadonlySet<string>,
  scope: Scope,
  ignored: IgnoredKeys,
  read: (item: Record<string, unknown>, at: Scope) => Record<string, unknown>,
): FileEntry[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return scope.fail(`${section} must be an array`);
  const seen = new Map<string, number>();
  return value.map((item: unknown, index) => {
    const at = scope.child(`${section}[${index}]`);
    if (!isPlainObject(item)) return at.fail('must be an object');
    const { id } = item;
    if (typeof id !== 'string' || !SIGNER_ID_PATTERN.test(id))
      return at.fail('id must be 1 to 36 letters, digits, "-" or "_"');
    // Any other key (a relayer's `address` copied from a GET, a comment) is one the reference system ignores.
    const known = withoutIgnoredKeys(item, keys, at, ignored);
    const first = seen.get(id);
    if (first !== undefined) at.fail(`id '${id}' is defined more than once (first at ${section}[${first}])`);
    seen.set(id, index);
    return { id, body: read(known, at) };
  });
}

export function readNotifications(
  value: unknown,
  scope: Scope,
  env: Record<string, string | undefined>,
  ignored: IgnoredKeys,
): FileEntry[] {
  return sectionEntries(value, 'notifications', NOTIFICATION_KEYS, scope, ignored, (item, at) => {
    if (item.type !== 'webhook') at.fail('type must be "webhook"');
    if (!isNonEmptyString(item.url)) at.fail('url must be a non-empty string');
    const { signing_key: key, ...body } = item;
    if (key === undefined || key === null) return body;
    if (typeof key === 'string') return { ...body, signing_key: key };
    const keyScope = at.child('signing_key');
    const ref = parseSecretRef(key, keyScope, { generated: false });
    return { ...body, signing_key: resolveSecret(ref, keyScope, env) };
  });
}

export function readRelayers(
  value: unknown,
  scope: Scope,
  ignored: IgnoredKeys,
  env: Record<string, string | undefined>,
): FileEntry[] {
  return sectionEntries(value, 'relayers', RELAYER_KEYS, scope, ignored, (item, at) => {
    const urls = item.custom_rpc_urls;
    // Items may be plain strings (weight 100); the relayer rules themselves are the API's.
    if (!Array.isArray(urls) || urls.length === 0) return item;
    return { ...item, custom_rpc_urls: parseRpcUrls(urls, at, env, 'custom_rpc_urls') };
  });
}
