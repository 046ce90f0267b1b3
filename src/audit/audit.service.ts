import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import type { Repository } from 'typeorm';
import { Page } from '../common/http/page';
import { RequestContext } from '../common/http/request-context';
import { PollingLoop } from '../common/scheduling/polling-loop';
import { EntityRows } from '../database/entity-rows';
import { CHANGE_RECORDED, type CommittingEvent } from '../database/transactions';
import type { AuditChange } from './audit-change';
import { AuditEventEntity } from './audit-event.entity';
import { AuditEventResponse, AuditQueryDto } from './dto/audit.dto';
import { toAuditEventResponse } from './audit.mapper';

export const AUDIT_RETENTION_MS = 90 * 24 * 3600 * 1000;

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

  /** The insert of every record: one fixed SQL string, not an insert query built per change. */
  private readonly rows: EntityRows<AuditEventEntity>;

  constructor(@InjectRepository(AuditEventEntity) private readonly events: Repository<AuditEventEntity>) {
    this.rows = new EntityRows(events);
  }

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
  @OnEvent(`${CHANGE_RECORDED}.committing`, { async: true, promisify: true, suppressErrors: false })
  async record({ manager, event }: CommittingEvent<AuditChange>): Promise<void> {
    const context = RequestContext.current();
    const actor = context?.principal ?? context?.actor ?? { type: 'system', id: 'system', name: 'service' };
    await this.rows.insert(manager, {
      id: nextId(),
      at: new Date(),
      actorType: actor.type,
      actorId: actor.id,
      actorName: actor.name,
      action: `${event.resource}.${event.operation}`,
      resourceType: event.resource,
      resourceId: event.id,
      requestId: context?.requestId ?? '',
      before: event.before,
      after: event.after,
    });
  }

  async list(query: AuditQueryDto): Promise<Page<AuditEventResponse>> {
    const select = this.events.createQueryBuilder('e');
    if (query.resource_type !== undefined)
      select.andWhere('e.resource_type = :type', { type: query.resource_type });
    if (query.resource_id !== undefined) select.andWhere('e.resource_id = :rid', { rid: query.resource_id });
    if (query.actor_id !== undefined) select.andWhere('e.actor_id = :actor', { actor: query.actor_id });
    if (query.action !== undefined) select.andWhere('e.action = :action', { action: query.action });
    if (query.since !== undefined) select.andWhere('e.at >= :since', { since: query.since });
    if (query.until !== undefined) select.andWhere('e.at < :until', { until: query.until });
    const [rows, total] = await select
      .orderBy('e.at', 'DESC')
      .addOrderBy('e.id', 'DESC')
      .skip(query.offset)
      .take(query.per_page)
      .getManyAndCount();
    return new Page(rows.map(toAuditEventResponse), query, total);
  }

  private async sweep(): Promise<void> {
    const result = await this.events
      .createQueryBuilder()
      .delete()
      .from(AuditEventEntity)
      .where('at < :before', { before: new Date(Date.now() - AUDIT_RETENTION_MS) })
      .execute();
    if ((result.affected ?? 0) > 0)
      this.logger.log(`removed ${result.affected} audit records older than 90 days`);
  }
}
