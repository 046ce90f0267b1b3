import { SIGNER_ID_PATTERN } from './catalogue.types';
import { Scope, isNonEmptyString, isPlainObject, refuseUnknownKeys } from './config-json';
import { parseRpcUrls } from './network-entries';
import { parseSecretRef, resolveSecret } from './signer-entries';

/** A notification of the file: the body of a create, its signing key resolved (19.1). */
export interface FileNotification {
  readonly id: string;
  readonly type: 'webhook';
  readonly url: string;
  readonly signing_key?: string;
}

/** A relayer of the file: the body of a create, `custom_rpc_urls` as `{url, weight}` objects. */
export interface FileRelayer {
  readonly id: string;
  readonly body: Readonly<Record<string, unknown>>;
}

const NOTIFICATION_KEYS: ReadonlySet<string> = new Set(['id', 'type', 'url', 'signing_key']);
const RELAYER_KEYS: ReadonlySet<string> = new Set([
  ...['id', 'name', 'network', 'network_type', 'paused', 'signer_id'],
  ...['notification_id', 'custom_rpc_urls', 'policies'],
]);
const ID_RULE = 'id must be 1 to 36 letters, digits, "-" or "_"';

/** The entries of a section: an array of objects with distinct ids, each named `<section>[<i>]`. */
function entriesOf(
  value: unknown,
  section: string,
  keys: ReadonlySet<string>,
  scope: Scope,
): { item: Record<string, unknown>; id: string; scope: Scope }[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return scope.fail(`${section} must be an array`);
  const seen = new Map<string, number>();
  return value.map((item: unknown, index) => {
    const at = scope.child(`${section}[${index}]`);
    if (!isPlainObject(item)) return at.fail('must be an object');
    if (typeof item.id !== 'string' || !SIGNER_ID_PATTERN.test(item.id)) return at.fail(ID_RULE);
    refuseUnknownKeys(item, keys, at);
    const first = seen.get(item.id);
    if (first !== undefined)
      at.fail(`id '${item.id}' is defined more than once (first at ${section}[${first}])`);
    seen.set(item.id, index);
    return { item, id: item.id, scope: at };
  });
}

export function readNotifications(
  value: unknown,
  scope: Scope,
  env: Record<string, string | undefined>,
): FileNotification[] {
  return entriesOf(value, 'notifications', NOTIFICATION_KEYS, scope).map(({ item, id, scope: at }) => {
    if (item.type !== 'webhook') at.fail('type must be "webhook"');
    const url = isNonEmptyString(item.url) ? item.url : at.fail('url must be a non-empty string');
    const key = item.signing_key;
    if (key === undefined || key === null) return { id, type: 'webhook', url };
    const ref =
      typeof key === 'string'
        ? { type: 'plain' as const, value: key }
        : parseSecretRef(key, at.child('signing_key'), { generated: false });
    return {
      id,
      type: 'webhook',
      url,
      signing_key: resolveSecret(ref, at.child('signing_key'), env),
    };
  });
}

export function readRelayers(value: unknown, scope: Scope): FileRelayer[] {
  return entriesOf(value, 'relayers', RELAYER_KEYS, scope).map(({ item, id, scope: at }) => {
    const urls = item.custom_rpc_urls;
    // A plain string weighs 100; the relayer rules themselves are the API's (checked when applied).
    const body =
      Array.isArray(urls) && urls.length > 0
        ? { ...item, custom_rpc_urls: parseRpcUrls(urls, at, 'custom_rpc_urls') }
        : item;
    return { id, body };
  });
}
