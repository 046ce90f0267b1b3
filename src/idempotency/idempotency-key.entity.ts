import { Column, Entity } from 'typeorm';
import { DocumentColumn } from '../database/document-column';
import { IdPrimaryColumn } from '../database/id-column';

/** Claimed by INSERT: the primary key decides races, across instances and Galera nodes. */
@Entity({ name: 'idempotency_keys' })
export class IdempotencyKeyEntity {
  /** The principal's id. */
  @IdPrimaryColumn({ length: 64 })
  scope: string;

  @IdPrimaryColumn({ name: 'idempotency_key', length: 255 })
  key: string;

  @Column({ type: 'varchar', length: 2048 })
  request: string;

  @Column({ name: 'request_digest', type: 'varchar', length: 64 })
  requestDigest: string;

  @Column({ type: 'varchar', length: 16 })
  state: 'in_flight' | 'done';

  @Column({ name: 'claim_token', type: 'varchar', length: 36 })
  claimToken: string;

  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus: number | null;

  @DocumentColumn({ name: 'response_body', nullable: true })
  responseBody: string | null;

  @Column({ name: 'response_headers', type: 'text', nullable: true })
  responseHeaders: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
