/**
 * A change made through the API, for the audit trail (docs/reference/keys-and-audit.md): services publish it with
 * `tx.publish(AUDIT_CHANGE, change)` in the change's transaction, so that the record is written
 * (or not) with the change itself. `before` and `after` are response-shaped, with no secret.
 */
export const AUDIT_CHANGE = 'audit.change';

export const AUDITED_RESOURCES = ['relayer', 'notification', 'signer', 'network', 'api_key'] as const;
export type AuditedResource = (typeof AUDITED_RESOURCES)[number];
export type AuditOperation = 'create' | 'update' | 'delete';

export interface AuditChange {
  readonly resourceType: AuditedResource;
  readonly resourceId: string;
  readonly operation: AuditOperation;
  /** The resource as it was answered before the change; null for a create. */
  readonly before: object | null;
  /** The resource as it is answered after the change; null for a delete. */
  readonly after: object | null;
}
