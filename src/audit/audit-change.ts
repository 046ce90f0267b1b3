import { maskUrl } from '../common/security/url-masking';
import { knownGrants } from '../common/auth/principal';
import { auditedResources } from '../common/auth/resources';
import type { Change } from '../database/transactions';

/**
 * The types GET /api/v1/audit lists (docs/reference/keys-and-audit.md): the resources declared
 * audited, by their features or by extensions (declareResource). In the order of their first
 * permission among knownGrants(), so the service's keep the order of its permissions; those without
 * one last, in the order they were declared.
 */
export function auditedTypes(): readonly string[] {
  const grants = knownGrants();
  const rank = (permissions: readonly string[]): number =>
    Math.min(grants.length, ...permissions.map((p) => grants.indexOf(p)).filter((i) => i >= 0));
  return [...auditedResources()]
    .sort((a, b) => rank(a.permissions) - rank(b.permissions))
    .map((resource) => resource.name);
}

/** `<type>.<operation>` for each of `types`, by the operations its resource declared. */
export function auditActions(types: readonly string[]): string[] {
  const operations = new Map(auditedResources().map((resource) => [resource.name, resource.operations]));
  return types.flatMap((type) => (operations.get(type) ?? []).map((op) => `${type}.${op}`));
}

export type AuditChange = Change;

/**
 * What the audit trail shows of a snapshot: a notification's `url` masked as RPC URLs are in every
 * answer (docs/reference/hardening.md), since a webhook URL may hold a token in its path (Slack's).
 * Applied when a record is written and when one is read (records written before it hold the URL).
 */
export function auditSnapshot<T extends object | null>(resource: string, snapshot: T): T {
  if (resource !== 'notification' || snapshot === null) return snapshot;
  const { url } = snapshot as { url?: unknown };
  return typeof url === 'string' ? { ...snapshot, url: maskUrl(url) } : snapshot;
}
