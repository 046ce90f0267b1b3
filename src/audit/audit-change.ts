import { maskUrl } from '../common/security/url-masking';
import type { Change } from '../database/transactions';

/** The resources whose changes the audit trail keeps (docs/reference/keys-and-audit.md). */
export const AUDITED_RESOURCES = ['relayer', 'notification', 'signer', 'network', 'api_key'] as const;

export interface AuditChange extends Change {
  readonly resource: (typeof AUDITED_RESOURCES)[number];
}

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
