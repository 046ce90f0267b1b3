import type { Change } from '../database/transactions';

/** The resources whose changes the audit trail keeps (docs/reference/keys-and-audit.md). */
export const AUDITED_RESOURCES = ['relayer', 'notification', 'signer', 'network', 'api_key'] as const;

export interface AuditChange extends Change {
  readonly resource: (typeof AUDITED_RESOURCES)[number];
}
