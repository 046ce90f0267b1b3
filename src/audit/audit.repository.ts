import { Injectable } from '@nestjs/common';
import { LessThan, type SelectQueryBuilder } from 'typeorm';
import type { CursorPosition } from '../common/http/cursor-page-query.dto';
import { RelayerScope } from '../common/auth/relayer-scope';
import { EntityRepository } from '../database/entity-rows';
import { AuditEventEntity } from './audit-event.entity';
import type { AuditQueryDto } from './dto/audit.dto';

@Injectable()
export class AuditRepository extends EntityRepository(AuditEventEntity) {
  async findMatching(query: AuditQueryDto): Promise<{ items: AuditEventEntity[]; total: number }> {
    const [items, total] = await this.matching(query)
      .orderBy('e.at', 'DESC')
      .addOrderBy('e.id', 'DESC')
      .skip(query.offset)
      .take(query.per_page)
      .getManyAndCount();
    return { items, total };
  }

  /**
   * Up to `limit` records older than `after` (all from the newest without it), newest first: a range of
   * idx_audit_events_at_id read backwards from the position, whatever its depth; nothing counted
   * (docs/reference/pagination.md#17-cursors).
   */
  async findAfter(
    query: AuditQueryDto,
    after: CursorPosition | null,
    limit: number,
  ): Promise<AuditEventEntity[]> {
    const select = this.matching(query);
    if (after !== null) {
      // `at <= :at` bounds the range; the rest leaves out the records of that time up to the position.
      select.andWhere('e.at <= :afterAt AND (e.at < :afterAt OR e.id < :afterId)', {
        afterAt: after.at,
        afterId: after.id,
      });
    }
    return select.orderBy('e.at', 'DESC').addOrderBy('e.id', 'DESC').limit(limit).getMany();
  }

  private matching(query: AuditQueryDto): SelectQueryBuilder<AuditEventEntity> {
    const select = this.repository.createQueryBuilder('e');
    if (query.resource_type !== undefined)
      select.andWhere('e.resource_type = :type', { type: query.resource_type });
    // Filters of any string: the plain comparison uses an index, the bytewise one keeps trailing spaces,
    // which MySQL's binary collations ignore (docs/reference/running.md#37-ids-compare-exactly).
    if (query.resource_id !== undefined) {
      select.andWhere(`e.resource_id = :rid AND ${this.dialect.bytewise('e.resource_id')} = :rid`, {
        rid: query.resource_id,
      });
    }
    if (query.actor_id !== undefined) {
      select.andWhere(`e.actor_id = :actor AND ${this.dialect.bytewise('e.actor_id')} = :actor`, {
        actor: query.actor_id,
      });
    }
    if (query.action !== undefined) select.andWhere('e.action = :action', { action: query.action });
    if (query.since !== undefined) select.andWhere('e.at >= :since', { since: query.since });
    if (query.until !== undefined) select.andWhere('e.at < :until', { until: query.until });
    // A key limited to some relayers reads only their records (docs/reference/keys-and-audit.md#3-relayer-scope).
    const scope = RelayerScope.current();
    if (scope !== null) {
      // `resource_id` is binary (1797600000000-ExactIds) and scope entries hold no space: compared as
      // it stands, so that idx_audit_events_resource serves an exact entry.
      const { sql, parameters } = scope.condition(
        'e.resource_id',
        (expression) => expression,
        (index) => `:scope${index}`,
      );
      select.andWhere(`e.resource_type = 'relayer' AND ${sql}`, {
        ...Object.fromEntries(parameters.map((value, index) => [`scope${index}`, value])),
      });
    }
    return select;
  }

  async deleteBefore(before: Date): Promise<number> {
    const result = await this.repository.delete({ at: LessThan(before) });
    return result.affected ?? 0;
  }
}
