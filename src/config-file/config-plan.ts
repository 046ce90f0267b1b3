import { createHash } from 'node:crypto';
import path from 'node:path';
import { CatalogueConfigError, type ConfigFile } from '../catalogue/catalogue.module';

export type EntryKind = 'relayer' | 'notification';

/** One change reconciliation makes (docs/reference/config-file.md#2-reconciliation-at-every-start). */
export interface PlannedChange {
  readonly kind: EntryKind;
  readonly id: string;
  readonly action: 'create' | 'update';
  /** Where the entry is in the file: `relayers[2]`. */
  readonly at: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly digest: string;
}

interface Plan {
  readonly changes: readonly PlannedChange[];
  /** Applied entries that are no longer in the file (kept): `relayer 'id'`. */
  readonly removed: readonly string[];
}

/** What reconciliation needs to know of the database: the digests applied, and what is stored. */
export interface StoredState {
  /** `<kind>:<id>` to the digest last applied. */
  readonly applied: ReadonlyMap<string, string>;
  /** null when not stored; for a relayer, its fields that cannot change. */
  find(kind: EntryKind, id: string): Promise<Readonly<Record<string, unknown>> | null>;
}

const IMMUTABLE = ['network', 'network_type', 'signer_id'] as const;

/** Create what is not stored, update what changed since it was applied, leave the rest alone. */
export async function planChanges(file: ConfigFile, state: StoredState): Promise<Plan> {
  const changes: PlannedChange[] = [];
  const seen = new Set<string>();
  // Notifications first: relayers may name them.
  const sections = [['notification', file.notifications] as const, ['relayer', file.relayers] as const];
  const entries = sections.flatMap(([kind, list]) =>
    list.map(({ id, body }, i) => ({ kind, id, at: `${kind}s[${i}]`, body, digest: digestOf(body) })),
  );
  for (const entry of entries) {
    const key = `${entry.kind}:${entry.id}`;
    seen.add(key);
    const stored = await state.find(entry.kind, entry.id);
    if (stored === null) changes.push({ ...entry, action: 'create' });
    else if (state.applied.get(key) !== entry.digest) {
      const changed = IMMUTABLE.find(
        (field) => entry.kind === 'relayer' && entry.body[field] !== stored[field],
      );
      if (changed !== undefined) {
        throw new CatalogueConfigError(
          `CONFIG_FILE ${file.file}: ${entry.at} (relayer '${entry.id}'): ${changed} cannot change (stored ${JSON.stringify(stored[changed])}); ` +
            'delete the relayer through the API first',
        );
      }
      changes.push({ ...entry, action: 'update' });
    }
  }
  const removed = [...state.applied.keys()]
    .filter((key) => !seen.has(key))
    .sort()
    .map((key) => key.replace(/^(\w+):(.*)$/, "$1 '$2'"));
  return { changes, removed };
}

/** A problem of the API (a ValidationError's line) under the entry's path: `relayers[0].name must be ...`. */
export function underEntry(at: string, problem: string): string {
  return `${at}${/^[a-z_]+[ .[]/.test(problem) ? '.' : ': '}${problem}`;
}

/** One line per change, for the log and `config plan`. */
export function describePlan(file: string, plan: Plan): string[] {
  const name = path.basename(file);
  return [
    ...plan.changes.map((change) => `${change.action} ${change.kind} '${change.id}' (${change.at})`),
    ...plan.removed.map((entry) => `${entry} is no longer in ${name}: kept as it is`),
  ];
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
  return JSON.stringify(value);
}
