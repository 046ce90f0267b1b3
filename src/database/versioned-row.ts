import { Column } from 'typeorm';
import { IdPrimaryColumn } from './id-column';

/** The columns of a resource written with `If-Match` (EntityRepository's updateVersioned, deleteVersioned). */
export abstract class VersionedRow {
  @IdPrimaryColumn()
  id: string;

  /** Optimistic lock: every update checks and bumps it, so concurrent merges never lose a change. */
  @Column({ type: 'integer' })
  version: number;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
