import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { cursorPage } from '../common/http/cursor-page-query.dto';
import { Page } from '../common/http/page.dto';
import { RequestContext } from '../common/http/request-context';
import { PollingLoop } from '../common/scheduling/polling-loop';
import { OnCommitting } from '../database/on-committing';
import { CHANGE_RECORDED, type CommittingEvent } from '../database/transactions';
import { auditSnapshot, type AuditChange } from './audit-change';
import { toAuditEventResponse } from './audit.mapper';
import { AuditRepository } from './audit.repository';
import { AuditEventResponse, AuditQueryDto } from './dto/audit.dto';

const AUDIT_RETENTION_MS = 90 * 24 * 3600 * 1000;

let sequence = 0;
/**
 * 36 hex characters ordered by time: the millisecond (12), a counter of this process (8), random
 * (16). Records of one millisecond keep their order, so "newest first" is stable within an instance.
 */
function nextId(): string {
  sequence = (sequence + 1) % 0x1_0000_0000;
  return (
    Date.now().toString(16).padStart(12, '0') +
    sequence.toString(16).padStart(8, '0') +
    randomBytes(8).toString('hex')
  );
}
const SWEEP_EVERY_MS = 3600 * 1000;

/** The audit trail: written in each change's transaction, read newest first, kept 90 days. */
@Injectable()
export class AuditService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Audit');
  private readonly sweeper = new PollingLoop('AuditRetention', () => this.sweep(), SWEEP_EVERY_MS);

  constructor(private readonly events: AuditRepository) {}

  onApplicationBootstrap(): void {
    this.sweeper.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sweeper.stop();
  }

  /**
   * In the change's transaction: a change that rolls back leaves no record. The actor is the
   * request's principal; a change made outside a request (an extension's job) is the `system`'s.
   */
  @OnCommitting(CHANGE_RECORDED)
  async record(committing: CommittingEvent<AuditChange>): Promise<void> {
    const { event } = committing;
    const context = RequestContext.current();
    const actor = context?.principal ?? context?.actor ?? { type: 'system', id: 'system', name: 'service' };
    await this.events.insert(
      {
        id: nextId(),
        at: new Date(),
        actorType: actor.type,
        actorId: actor.id,
        actorName: actor.name,
        action: `${event.resource}.${event.operation}`,
        resourceType: event.resource,
        resourceId: event.id,
        requestId: context?.requestId ?? '',
        before: auditSnapshot(event.resource, event.before),
        after: auditSnapshot(event.resource, event.after),
      },
      committing,
    );
  }

  async list(query: AuditQueryDto): Promise<Page<AuditEventResponse>> {
    if (query.byCursor) {
      const limit = query.cursorLimit;
      const rows = await this.events.findAfter(query, query.position, limit + 1);
      const { items, nextCursor } = cursorPage(rows, limit, (row) => ({ at: row.at, id: row.id }));
      return new Page(items.map(toAuditEventResponse), query, null, { limit, next: nextCursor });
    }
    const { items, total } = await this.events.findMatching(query);
    return new Page(items.map(toAuditEventResponse), query, total);
  }

  private async sweep(): Promise<void> {
    const removed = await this.events.deleteBefore(new Date(Date.now() - AUDIT_RETENTION_MS));
    if (removed > 0) this.logger.log(`removed ${removed} audit records older than 90 days`);
  }
}
