import { withRawIntegers } from '../common/http/json';
import { auditSnapshot } from './audit-change';
import { AuditEventEntity } from './audit-event.entity';
import { AuditEventResponse } from './dto/audit.dto';

export function toAuditEventResponse(row: AuditEventEntity): AuditEventResponse {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { type: row.actorType, id: row.actorId, name: row.actorName },
    action: row.action,
    resource_type: row.resourceType,
    resource_id: row.resourceId,
    request_id: row.requestId,
    // Snapshots keep amounts beyond 2^53 as bigint (jsonColumn): raw JSON numbers for res.json.
    before: withRawIntegers(auditSnapshot(row.resourceType, row.before)) as AuditEventResponse['before'],
    after: withRawIntegers(auditSnapshot(row.resourceType, row.after)) as AuditEventResponse['after'],
  };
}
