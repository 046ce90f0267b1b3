/** Fields every update moves: not worth a line. */
const UNTOLD = new Set(['created_at', 'updated_at']);

/** A value as JSON text: exact (strings quoted, null as null), never markup. */
function shown(value: unknown): string {
  return value === undefined ? '(absent)' : JSON.stringify(value);
}

/**
 * What an audit record changed: every field of a create or a delete, the fields that differ for an
 * update (not the times every change moves). The one way the console shows a record's change.
 */
export function AuditChange({ before, after }: { before: object | null; after: object | null }) {
  if (before === null && after === null) return <span class="muted">no detail</span>;
  if (before === null || after === null) {
    const side = (after ?? before) as Record<string, unknown>;
    return (
      <div class="change">
        <p>{after === null ? 'Deleted; it was:' : 'Created as:'}</p>
        <ul class="plain">
          {Object.entries(side).map(([name, value]) => (
            <li key={name}>
              <code>{name}</code>: {shown(value)}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  const old = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  const names = [...new Set([...Object.keys(old), ...Object.keys(now)])].filter(
    (name) => !UNTOLD.has(name) && JSON.stringify(old[name]) !== JSON.stringify(now[name]),
  );
  if (names.length === 0) {
    // A target's signing key is masked as has_signing_key (docs/reference/keys-and-audit.md#23-no-secret-in-a-record):
    // a rotation (POST .../signing-key, or a PATCH of it) reads as a change of nothing, as a PATCH to the
    // same values does, and the record cannot tell which.
    return (
      <span class="muted">
        {old.has_signing_key === true && now.has_signing_key === true
          ? 'signing key replaced, or nothing changed (the key is never shown)'
          : 'no field changed'}
      </span>
    );
  }
  return (
    <div class="change">
      <p>Changed:</p>
      <ul class="plain">
        {names.map((name) => (
          <li key={name}>
            <code>{name}</code>: {shown(old[name])} → {shown(now[name])}
          </li>
        ))}
      </ul>
    </div>
  );
}
