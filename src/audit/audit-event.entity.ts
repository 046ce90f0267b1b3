import { Column, Entity } from 'typeorm';
import { DocumentColumn } from '../database/document-column';
import { IdColumn, IdPrimaryColumn } from '../database/id-column';
import { jsonColumn } from '../database/json-column';

/** One change made through the API: who, what, when, and the resource before and after. */
@Entity({ name: 'audit_events' })
export class AuditEventEntity {
  @IdPrimaryColumn()
  id: string;

  @Column({ type: 'datetime', precision: 3 })
  at: Date;

  @Column({ name: 'actor_type', type: 'varchar', length: 16 })
  actorType: string;

  /** Null for the configuration file. */
  @IdColumn({ name: 'actor_id', nullable: true, length: 255, characters: 'text' })
  actorId: string | null;

  @Column({ name: 'actor_name', type: 'varchar', length: 255 })
  actorName: string;

  @Column({ type: 'varchar', length: 32 })
  action: string;

  @Column({ name: 'resource_type', type: 'varchar', length: 16 })
  resourceType: string;

  @IdColumn({ name: 'resource_id', length: 120, characters: 'text' })
  resourceId: string;

  @Column({ name: 'request_id', type: 'varchar', length: 128 })
  requestId: string;

  @DocumentColumn({ nullable: true, transformer: jsonColumn })
  before: object | null;

  @DocumentColumn({ nullable: true, transformer: jsonColumn })
  after: object | null;
}
