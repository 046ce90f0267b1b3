import type { Change } from '../database/transactions';

/**
 * The resources whose changes the audit trail keeps (docs/reference/keys-and-audit.md): services record
 * them with `tx.recordChange`, and the audit writer subscribes to CHANGE_RECORDED in the change's
 * transaction, so that the record is written (or not) with the change itself.
 */
export const AUDITED_RESOURCES = ['relayer', 'notification', 'signer', 'network', 'api_key'] as const;
export type AuditedResource = (typeof AUDITED_RESOURCES)[number];

export interface AuditChange extends Change {
  readonly resource: AuditedResource;
}
