import { createHash } from 'node:crypto';
import path from 'node:path';
import { CatalogueConfigError, type ConfigFile } from './config-file-loader';
import { stringifyJson } from '../common/http/json';

export type EntryKind = 'relayer' | 'notification' | 'alert_channel';

/** Each field of an entry to the SHA-256 of its value: what was applied, never the value (a signing key is one). */
export type FieldDigests = Readonly<Record<string, string>>;

/** What config_entries holds of an entry as last applied; `fields` null for a row of before they were kept. */
export interface AppliedEntry {
  readonly digest: string;
  readonly fields: FieldDigests | null;
}

/** One change reconciliation makes (docs/reference/config-file.md#2-reconciliation-at-every-start). */
export interface PlannedChange {
  readonly kind: EntryKind;
  readonly id: string;
  readonly action: 'create' | 'update';
  /** Where the entry is in the file: `relayers[2]`. */
  readonly at: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly digest: string;
  readonly fields: FieldDigests;
  /** For an update, the fields a PATCH writes: those whose value in the file changed since last applied. */
  readonly written: readonly string[];
}

/** An entry whose digests are recorded without a write (the file changed nothing a PATCH could write). */
export type RecordedEntry = Pick<PlannedChange, 'kind' | 'id' | 'digest' | 'fields'>;

interface Plan {
  readonly changes: readonly PlannedChange[];
  readonly recorded: readonly RecordedEntry[];
  /** Applied entries that are no longer in the file (kept): `relayer 'id'`. */
  readonly removed: readonly string[];
}

/** What reconciliation needs to know of the database: what was applied, and what is stored. */
export interface StoredState {
  /** `<kind>:<id>` to what was last applied. */
  readonly applied: ReadonlyMap<string, AppliedEntry>;
  /** null when not stored; else its fields that cannot change (IMMUTABLE). */
  find(kind: EntryKind, id: string): Promise<Readonly<Record<string, unknown>> | null>;
}

/** The fields that cannot change once stored, per kind: a change stops the start. */
const IMMUTABLE: Readonly<Record<EntryKind, readonly string[]>> = {
  relayer: ['network', 'network_type', 'signer_id'],
  notification: [],
  alert_channel: ['type'],
};

/** The fields a PATCH of the API may write, per kind. */
export const WRITABLE: Readonly<Record<EntryKind, readonly string[]>> = {
  relayer: ['name', 'paused', 'notification_id', 'custom_rpc_urls', 'policies'],
  notification: ['type', 'url', 'signing_key'],
  alert_channel: ['config', 'events', 'relayer_ids'],
};

/**
 * Create what is not stored; of what changed since it was applied, write only the fields whose value
 * in the file changed, so that the API's changes to the others stay. An entry applied before the
 * field digests were kept (or never applied, yet stored) has every field written, and one whose
 * entry is unchanged only gets its field digests recorded.
 */
export async function planChanges(file: ConfigFile, state: StoredState): Promise<Plan> {
  const changes: PlannedChange[] = [];
  const recorded: RecordedEntry[] = [];
  const seen = new Set<string>();
  // Notifications first: relayers may name them.
  const sections = [
    ['notification', file.notifications] as const,
    ['relayer', file.relayers] as const,
    ['alert_channel', file.alertChannels ?? []] as const,
  ];
  const entries = sections.flatMap(([kind, list]) =>
    list.map(({ id, body }, i) => ({
      kind,
      id,
      at: `${kind}s[${i}]`,
      body,
      digest: digestOf(body),
      fields: fieldDigestsOf(body),
    })),
  );
  for (const entry of entries) {
    const key = `${entry.kind}:${entry.id}`;
    seen.add(key);
    const applied = state.applied.get(key);
    const stored = await state.find(entry.kind, entry.id);
    if (stored === null) {
      changes.push({ ...entry, action: 'create', written: [] });
    } else if (applied?.digest === entry.digest) {
      // The file holds what was applied: its field digests are those of the last applied entry.
      if (applied.fields === null) recorded.push(entry);
    } else {
      const changed = IMMUTABLE[entry.kind].find((field) => entry.body[field] !== stored[field]);
      if (changed !== undefined) {
        const kind = entry.kind.replace('_', ' ');
        throw new CatalogueConfigError(
          `CONFIG_FILE ${file.file}: ${entry.at} (${kind} '${entry.id}'): ${changed} cannot change (stored ${JSON.stringify(stored[changed])}); ` +
            `delete the ${kind} through the API first`,
        );
      }
      const before = applied?.fields ?? null;
      const written = WRITABLE[entry.kind].filter(
        (field) => before === null || before[field] !== entry.fields[field],
      );
      if (written.length === 0) recorded.push(entry);
      else changes.push({ ...entry, action: 'update', written });
    }
  }
  const removed = [...state.applied.keys()]
    .filter((key) => !seen.has(key))
    .sort()
    .map((key) => key.replace(/^(\w+):(.*)$/, "$1 '$2'"));
  return { changes, recorded, removed };
}

/** A problem of the API (a ValidationError's line) under the entry's path: `relayers[0].name must be ...`. */
export function underEntry(at: string, problem: string): string {
  return `${at}${/^[a-z_]+[ .[]/.test(problem) ? '.' : ': '}${problem}`;
}

/** One line per change, for the log and `config plan`. */
export function describePlan(file: string, plan: Plan): string[] {
  const name = path.basename(file);
  return [
    ...plan.changes.map(
      ({ action, kind, id, at, written }) =>
        `${action} ${kind} '${id}' (${at})${action === 'update' ? `: ${written.join(', ')}` : ''}`,
    ),
    ...plan.removed.map((entry) => `${entry} is no longer in ${name}: kept as it is`),
  ];
}

/** Each field present (not undefined) to its digest: an absent field has none. */
export function fieldDigestsOf(body: Readonly<Record<string, unknown>>): FieldDigests {
  return Object.fromEntries(
    Object.entries(body)
      .filter(([, value]) => value !== undefined)
      .map(([field, value]) => [field, digestOf(value)]),
  );
}

/** Keys sorted at every level, so that reordering a file's keys is no change. */
export function digestOf(value: unknown): string {
  return createHash('sha256').update(canonical(value)).digest('hex');
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  // A bigint (an amount beyond 2^53 in the file) as its digits.
  return stringifyJson(value);
}
